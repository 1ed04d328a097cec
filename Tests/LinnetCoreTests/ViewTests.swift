import Foundation
import LinnetCore
import LinnetTestSupport
import Screen
import Testing
import Timeline
import TwitterAPI

@Suite struct ViewTests {
    func check(_ screen: Screen, _ name: String) {
        if let problem = Golden.check(screen.text, name) { Issue.record(Comment(rawValue: problem)) }
    }

    @Test(arguments: [(80, 24), (120, 40)]) func homeWithWideCharacters(_ size: (Int, Int)) async {
        let store = await Scene.store()
        let c = Scene.context(await store.snapshot())
        var s = Scene.state(size.0, size.1)
        _ = Reducer.reduce(&s, .storeChanged, c)
        let screen = Views.render(s, c)
        check(screen, "home-\(size.0)x\(size.1)")
        print(screen.text)
    }
}
