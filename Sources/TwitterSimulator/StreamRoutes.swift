import Bedrock
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// `statuses/filter`, `statuses/sample` and `user.json`.
enum StreamRoutes {
    static func open(_ r: SimRequest, _ identity: World.Identity, world: World) async -> SimResponse {
        let delimited = r.param("delimited") == "length"
        let warnings = World.truthy(r.param("stall_warnings"))
        let kind: StreamSubscriber.Kind
        switch r.path {
        case "/1.1/statuses/sample.json":
            kind = .sample
        case "/1.1/user.json":
            guard let uid = identity.userID else { return .error(403, code: 220, "Your credentials do not allow access to this resource.") }
            kind = .user(uid)
        default:
            let track = (r.param("track") ?? "").split(separator: ",").map {
                $0.lowercased().split(separator: " ").map(String.init)
            }.filter { !$0.isEmpty }
            var follow = Set<UInt64>()
            for part in (r.param("follow") ?? "").split(separator: ",") {
                guard let id = UInt64(part.trimmed()) else {
                    return text(406, "Parameter follow item \(follow.count) is not a user id")
                }
                follow.insert(id)
            }
            if let long = track.firstIndex(where: { $0.joined(separator: " ").utf8.count > 60 }) {
                return text(406, "Parameter track item index \(long) too long")
            }
            guard !track.isEmpty || !follow.isEmpty else {
                return text(406, "No filter parameters found. Expect at least one parameter: follow track locations")
            }
            guard track.count <= 400, follow.count <= 5000 else { return text(413, "Too many filter terms") }
            kind = .filter(track: track, follow: follow)
        }
        let frames = await world.subscribe(kind: kind, delimited: delimited, stallWarnings: warnings)
        return SimResponse(status: 200, headers: [("Content-Type", "application/json")], body: .stream(frames))
    }

    static func text(_ status: Int, _ body: String) -> SimResponse {
        SimResponse(status: status, headers: [("Content-Type", "text/plain")], body: .bytes(Data(body.utf8)))
    }
}
