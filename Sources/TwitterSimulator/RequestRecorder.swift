import Bedrock
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// `--record-requests`: each API request as a JSON line, for checking a client's requests
/// against X's contract. The Authorization header is reduced to its scheme (`OAuth`, `Bearer`);
/// the file is private to its owner (0600) since bodies may carry a password or a code.
final class RequestRecorder {
    private let fd: Int32

    init?(path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return nil }
        self.fd = fd
    }

    deinit { close(fd) }

    func append(_ r: SimRequest, status: Int) {
        guard r.path.hasPrefix("/2/") || r.path.hasPrefix("/1.1/") || r.path.hasPrefix("/oauth") else { return }
        var fields: [(String, J)] = [
            ("method", .string(r.method)), ("path", .string(r.rawPath)), ("query", .string(r.rawQuery)),
            ("status", .int(status)),
        ]
        if let type = r.headers["content-type"] { fields.append(("content_type", .string(type))) }
        if let scheme = r.headers["authorization"]?.split(separator: " ").first { fields.append(("auth_scheme", .string(String(scheme)))) }
        if !r.body.isEmpty {
            if let text = String(data: r.body, encoding: .utf8) {
                fields.append(("body", .string(text)))
            } else {
                fields.append(("body_base64", .string(r.body.base64EncodedString())))
            }
        }
        Stream.write(fd, (J.object(fields).text + "\n").utf8)
    }
}
