import Synchronization
import TweetText

/// The addresses text on the screen leads to (OSC 8), by a small number a style can carry.
/// Process-wide, so laid-out cards kept between frames keep their links. Only http and https
/// addresses are taken, and each is percent-encoded into Linnet's own form first: nothing from
/// a tweet can end the escape sequence or start another.
public enum Hyperlinks {
    private struct Table {
        var ids: [String: UInt16] = [:]
        var targets: [String] = [""]
        /// Each address as given, byte for byte, checked once: `WebAddress` parses it (60,000
        /// instructions, for each link of each card laid out). Not by `String`, whose `==`
        /// calls "café" with é and with e + U+0301 one address, which `WebAddress` does not.
        var given: [[UInt8]: UInt16] = [:]
    }
    private static let table = Mutex(Table())
    /// Distinct addresses a process keeps; past it, new ones are drawn without a link.
    public static let capacity = Int(UInt16.max)

    /// The number for an address, 0 when it cannot be a link (not http or https, or the table full).
    public static func id(for address: String) -> UInt16 {
        let bytes = Array(address.utf8)
        if let known = table.withLock({ $0.given[bytes] }) { return known }
        let target = target(address)
        return table.withLock { t in
            let id = target.map { target in
                if let id = t.ids[target] { return id }
                guard t.targets.count < capacity else { return 0 }
                let id = UInt16(t.targets.count)
                t.targets.append(target)
                t.ids[target] = id
                return id
            }
            // At most 32 MB of addresses kept, whatever a feed sends; past that, each is checked.
            if t.given.count < 8192, bytes.count <= 4096 { t.given[bytes] = id ?? 0 }
            return id ?? 0
        }
    }

    /// The encoded address for a number.
    public static func target(of id: UInt16) -> String? {
        guard id != 0 else { return nil }
        return table.withLock { t in Int(id) < t.targets.count ? t.targets[Int(id)] : nil }
    }

    /// An address as Linnet sends it: `WebAddress`'s rule (http and https only, parsed and
    /// written out again, everything outside RFC 3986's characters percent-encoded).
    public static func target(_ address: String) -> String? { WebAddress.safe(address) }
}
