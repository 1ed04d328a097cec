import Testing

@testable import Screen

/// A theme's styles looked up by the role's ordinal are those its table holds, the fallback's
/// where it has none, and follow a change of the table.
@Suite struct ThemeRoleTests {
    @Test func ordinalsAreTheRolesPlaces() {
        #expect(Theme.Role.allCases.enumerated().allSatisfy { $0.element.ordinal == $0.offset })
    }

    @Test func lookupsFollowTheTable() {
        let red = Style(fg: .indexed(1))
        var theme = Theme(name: "partial", styles: [.text: red, .dim: .plain])
        for role in Theme.Role.allCases {
            #expect(theme[role] == (theme.styles[role] ?? Theme.fallback.styles[role] ?? .plain), "\(role)")
        }
        #expect(theme[.text] == red && theme[.selection] == Theme.fallback[.selection])
        theme.styles[.selection] = red
        theme.styles[.text] = nil
        #expect(theme[.selection] == red && theme[.text] == Theme.fallback[.text])
        for role in Theme.Role.allCases { #expect(Theme.fallback[role] == Theme.fallback.styles[role] ?? .plain) }
    }
}
