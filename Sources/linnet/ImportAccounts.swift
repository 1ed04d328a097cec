import FoundationEssentials
import LinnetCore
import PlainYAML
import PrivateFiles

#if canImport(Glibc)
    import Glibc
#endif

/// Accounts from the files twurl (`~/.twurlrc`) and sferik's t (`~/.trc`) keep: YAML with
/// `profiles: {username: {consumer_key: {username, consumer_key, consumer_secret, token, secret}}}`.
enum ImportAccounts {
    static func candidates(home: String) -> [String] {
        [home + "/.twurlrc", home + "/.trc"].filter { FileManager.default.fileExists(atPath: $0) }
    }

    /// The accounts a file holds; an error names the file.
    static func read(_ path: String) throws -> [Account] {
        let text: String
        do {
            guard let t = try PrivateFile.readText(URL(fileURLWithPath: path)) else { throw CLIError("\(path) cannot be read.") }
            text = t
        } catch let e as PrivateFileError {
            throw CLIError(e.description)
        }
        let yaml: Any?
        do { yaml = try PlainYAML.load(text) } catch { throw CLIError("\(path) is not valid YAML: \(error)") }
        guard let root = yaml as? [String: Any], let profiles = root["profiles"] as? [String: Any] else {
            throw CLIError("\(path) has no profiles (expected the twurl or t format).")
        }
        var found: [Account] = []
        for user in profiles.keys.sorted() {
            guard let byKey = profiles[user] as? [String: Any] else { continue }
            for key in byKey.keys.sorted() {
                guard let p = byKey[key] as? [String: Any], let ck = p["consumer_key"] as? String else { continue }
                let name = (p["username"] as? String) ?? user
                found.append(
                    Account(
                        name: name, screenName: name, consumerKey: ck, consumerSecret: p["consumer_secret"] as? String,
                        token: p["token"] as? String, tokenSecret: p["secret"] as? String))
            }
        }
        return found
    }

    /// Adds accounts not already held (by name); returns the names added.
    static func merge(_ new: [Account], into c: inout AccountStore.Contents) -> [String] {
        var added: [String] = []
        for var a in new {
            guard !c.accounts.contains(where: { $0.consumerKey == a.consumerKey && $0.token == a.token }) else { continue }
            var n = a.name
            var i = 2
            while c.accounts.contains(where: { $0.name == n }) {
                n = "\(a.name)-\(i)"
                i += 1
            }
            a.name = n
            c.accounts.append(a)
            added.append(n)
        }
        if c.active == nil { c.active = c.accounts.first?.name }
        return added
    }
}
