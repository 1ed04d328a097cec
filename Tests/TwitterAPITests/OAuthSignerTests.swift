import Testing

@testable import TwitterAPI

/// Every signing vector in docs/PROTOCOL.md §1–3.
@Suite struct OAuthSignerTests {
    static let twitterExampleCredentials = OAuthCredentials(
        consumerKey: "xvz1evFS4wEEPTGEFPHBog", consumerSecret: "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw",
        token: "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb",
        tokenSecret: "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE")

    static func fixed(_ nonce: String, _ ts: Int64) -> OAuth1Signer {
        OAuth1Signer(nonce: { nonce }, timestamp: { ts })
    }

    @Test func twitterWorkedExampleBaseStringAndSignature() throws {
        let signer = Self.fixed("kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg", 1_318_622_958)
        let url = "https://api.twitter.com/1.1/statuses/update.json?include_entities=true"
        let form = [("status", "Hello Ladies + Gentlemen, a signed OAuth request!")]
        let params = try signer.oauthParameters(
            method: "POST", url: url, formParameters: form, credentials: Self.twitterExampleCredentials)
        let signature = params.first { $0.0 == "oauth_signature" }?.1
        #expect(signature == "hCtSmYh+iHYCEqBWrE7C7hYmtUk=")

        let unsigned = params.filter { $0.0 != "oauth_signature" }
        let target = try #require(RequestTarget(url))
        let base = OAuth1Signer.baseString(
            method: "POST", target: target, parameters: [("include_entities", "true")] + form + unsigned)
        #expect(
            base
                == "POST&https%3A%2F%2Fapi.twitter.com%2F1.1%2Fstatuses%2Fupdate.json&include_entities%3Dtrue%26oauth_consumer_key%3Dxvz1evFS4wEEPTGEFPHBog%26oauth_nonce%3DkYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D1318622958%26oauth_token%3D370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb%26oauth_version%3D1.0%26status%3DHello%2520Ladies%2520%252B%2520Gentlemen%252C%2520a%2520signed%2520OAuth%2520request%2521"
        )

        let header = try signer.authorizationHeader(
            method: "POST", url: url, formParameters: form, credentials: Self.twitterExampleCredentials)
        #expect(header.hasPrefix("OAuth "))
        #expect(header.contains("oauth_signature=\"hCtSmYh%2BiHYCEqBWrE7C7hYmtUk%3D\""))
        #expect(header.contains("oauth_token=\"370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb\""))
    }

    @Test func twitterExampleOnTheNewHost() throws {
        let signer = Self.fixed("kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg", 1_318_622_958)
        let params = try signer.oauthParameters(
            method: "POST", url: "https://api.x.com/1.1/statuses/update.json?include_entities=true",
            formParameters: [("status", "Hello Ladies + Gentlemen, a signed OAuth request!")],
            credentials: Self.twitterExampleCredentials)
        #expect(params.first { $0.0 == "oauth_signature" }?.1 == "Ls93hJiZbQ3akF3HF3x1Bz8/zU4=")
    }

    /// RFC 5849 §1.2 sends no oauth_version, so these sign exactly the parameters sent.
    @Test(arguments: [
        (
            "POST", "https://photos.example.net/initiate", "kd94hf93k423kf44&",
            [
                ("oauth_consumer_key", "dpf43f3p2l4k3l03"), ("oauth_signature_method", "HMAC-SHA1"),
                ("oauth_timestamp", "137131200"), ("oauth_nonce", "wIjqoS"),
                ("oauth_callback", "http://printer.example.com/ready"),
            ], "74KNZJeDHnMBp0EMJ9ZHt/XKycU="
        ),
        (
            "POST", "https://photos.example.net/token", "kd94hf93k423kf44&hdhd0244k9j7ao03",
            [
                ("oauth_consumer_key", "dpf43f3p2l4k3l03"), ("oauth_token", "hh5s93j4hdidpola"),
                ("oauth_signature_method", "HMAC-SHA1"), ("oauth_timestamp", "137131201"),
                ("oauth_nonce", "walatlh"), ("oauth_verifier", "hfdp7dh39dks9884"),
            ], "gKgrFCywp7rO0OXSjdot/IHF7IU="
        ),
        (
            "GET", "http://photos.example.net/photos?file=vacation.jpg&size=original",
            "kd94hf93k423kf44&pfkkdhi9sl3r4s00",
            [
                ("oauth_consumer_key", "dpf43f3p2l4k3l03"), ("oauth_token", "nnch734d00sl2jdk"),
                ("oauth_signature_method", "HMAC-SHA1"), ("oauth_timestamp", "137131202"),
                ("oauth_nonce", "chapoH"),
            ], "MdpQcU8iPSUjWoN/UDMsK2sui9I="
        ),
    ])
    func rfc5849Section1_2(method: String, url: String, key: String, oauth: [(String, String)], expected: String) throws {
        let target = try #require(RequestTarget(url))
        let query = target.query.map(PercentEncoding.parseForm) ?? []
        let base = OAuth1Signer.baseString(method: method, target: target, parameters: query + oauth)
        #expect(OAuth1Signer.signature(baseString: base, key: key) == expected)
    }

    @Test func rfc5849Section3_4_1NormalisationAndSignature() throws {
        let target = try #require(RequestTarget("http://example.com/request?b5=%3D%253D&a3=a&c%40=&a2=r%20b"))
        let query = PercentEncoding.parseForm(target.query ?? "")
        let body = PercentEncoding.parseForm("c2&a3=2+q")
        let oauth = [
            ("oauth_consumer_key", "9djdj82h48djs9d2"), ("oauth_token", "kkk9d7dh3k39sjv7"),
            ("oauth_signature_method", "HMAC-SHA1"), ("oauth_timestamp", "137131201"), ("oauth_nonce", "7d8f3e4a"),
        ]
        let all = query + body + oauth
        #expect(
            OAuth1Signer.normalizedParameters(all)
                == "a2=r%20b&a3=2%20q&a3=a&b5=%3D%253D&c%40=&c2=&oauth_consumer_key=9djdj82h48djs9d2&oauth_nonce=7d8f3e4a&oauth_signature_method=HMAC-SHA1&oauth_timestamp=137131201&oauth_token=kkk9d7dh3k39sjv7"
        )
        let base = OAuth1Signer.baseString(method: "POST", target: target, parameters: all)
        let key = OAuth1Signer.signingKey(consumerSecret: "j49sk3j29djd", tokenSecret: "dh893hdasih9")
        #expect(OAuth1Signer.signature(baseString: base, key: key) == "r6/TJjbCOr97/+UU0NsvSne7s5g=")
    }

    @Test func oauthCore1AppendixAThroughTheFullSigner() throws {
        let signer = Self.fixed("kllo9940pd9333jh", 1_191_242_096)
        let creds = OAuthCredentials(
            consumerKey: "dpf43f3p2l4k3l03", consumerSecret: "kd94hf93k423kf44", token: "nnch734d00sl2jdk",
            tokenSecret: "pfkkdhi9sl3r4s00")
        let params = try signer.oauthParameters(
            method: "GET", url: "http://photos.example.net/photos?file=vacation.jpg&size=original", credentials: creds)
        #expect(params.first { $0.0 == "oauth_signature" }?.1 == "tR3+Ty81lMeYAr/Fid0kMTYa/WM=")
    }

    @Test func stTwitterGeoSearchVector() throws {
        let signer = Self.fixed("ea95faa8097f4aeca24f77be0b6923a1", 1_351_964_056)
        let creds = OAuthCredentials(
            consumerKey: "30d7ECqcJDGx8pBEMqxCxg", consumerSecret: "N5YupBKlcE75i7HbeqkocCKiNk418bjQTIHCRKaX4",
            token: "15111995-XFRb1CWIy4YLtr82nxPULkEKxKn5Cvh88Qkrtxni8",
            tokenSecret: "iwKhgvXo3AJ6O61OqvEwgZJzw8jte0kwl09Twe3ik8")
        let params = try signer.oauthParameters(
            method: "GET", url: "https://api.twitter.com/1.1/geo/search.json?query=Toronto", credentials: creds)
        #expect(params.first { $0.0 == "oauth_signature" }?.1 == "eMPFYN/QqvrbQISuKOiq2I9vQpk=")
    }

    @Test func reverseAuthStepOne() throws {
        let target = try #require(RequestTarget("https://api.twitter.com/oauth/request_token"))
        let params = [
            ("oauth_consumer_key", "JP3PyvG67rXRsnayOJOcQ"), ("oauth_nonce", "1B7D865D-9E15-4ADD-8165-EF90D7A7D3D2"),
            ("oauth_signature_method", "HMAC-SHA1"), ("oauth_timestamp", "1322697052"), ("oauth_version", "1.0"),
            ("x_auth_mode", "reverse_auth"),
        ]
        let base = OAuth1Signer.baseString(method: "POST", target: target, parameters: params)
        #expect(
            base
                == "POST&https%3A%2F%2Fapi.twitter.com%2Foauth%2Frequest_token&oauth_consumer_key%3DJP3PyvG67rXRsnayOJOcQ%26oauth_nonce%3D1B7D865D-9E15-4ADD-8165-EF90D7A7D3D2%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D1322697052%26oauth_version%3D1.0%26x_auth_mode%3Dreverse_auth"
        )
        let key = OAuth1Signer.signingKey(consumerSecret: "ydC2yUbFaScbSlykO0PmrMjXFeLraSi3Q2HfTOlGxQM", tokenSecret: nil)
        #expect(OAuth1Signer.signature(baseString: base, key: key) == "03EyxBdr6bwBAx8M0Qq0R0F8CKY=")
    }

    @Test(arguments: [
        ("Ladies + Gentlemen", "Ladies%20%2B%20Gentlemen"),
        ("An encoded string!", "An%20encoded%20string%21"),
        ("Dogs, Cats & Mice", "Dogs%2C%20Cats%20%26%20Mice"),
        ("☃", "%E2%98%83"),
        ("!*'();:@&=+$,/?%#[]", "%21%2A%27%28%29%3B%3A%40%26%3D%2B%24%2C%2F%3F%25%23%5B%5D"),
        ("AZaz09-._~", "AZaz09-._~"),
    ])
    func percentEncoding(input: String, expected: String) {
        #expect(PercentEncoding.encode(input) == expected)
        #expect(PercentEncoding.decode(expected) == input)
    }

    @Test func appOnlyBasicCredential() {
        #expect(
            AppOnlyAuth.basicCredential(
                consumerKey: "xvz1evFS4wEEPTGEFPHBog", consumerSecret: "L8qq9PZyRg6ieKGEKhZolGC0vJWLw8iEJ88DRdyOg")
                == "eHZ6MWV2RlM0d0VFUFRHRUZQSEJvZzpMOHFxOVBaeVJnNmllS0dFS2hab2xHQzB2SldMdzhpRUo4OERSZHlPZw==")
    }

    @Test func hmacSHA1MatchesRFC2202Case1() {
        let mac = Crypto.hmacSHA1(key: [UInt8](repeating: 0x0B, count: 20), message: Array("Hi There".utf8))
        #expect(Crypto.hex(mac) == "b617318655057264e28bc0b6fb378c8ef146be00")
    }

    @Test func headerRoundTripsAndSkipsRealm() throws {
        let params = [("oauth_consumer_key", "a b"), ("oauth_signature", "x+y/z="), ("oauth_token", "☃")]
        let header = OAuth1Signer.header(params)
        let parsed = try #require(OAuth1Signer.parseHeader("OAuth realm=\"Example\", " + header.dropFirst(6)))
        #expect(parsed.map(\.0) == params.map(\.0))
        #expect(parsed.map(\.1) == params.map(\.1))
        #expect(OAuth1Signer.parseHeader("Bearer abc") == nil)
        #expect(OAuth1Signer.parseHeader("OAuth oauth_token=unquoted") == nil)
    }

    @Test func baseStringURIKeepsNonDefaultPortsOnly() throws {
        #expect(RequestTarget("http://EXAMPLE.COM:80/r%20v/X?id=123")?.baseStringURI == "http://example.com/r%20v/X")
        #expect(RequestTarget("https://www.example.net:8080/?q=1")?.baseStringURI == "https://www.example.net:8080/")
        #expect(RequestTarget("http://127.0.0.1:8080/1.1/x.json")?.baseStringURI == "http://127.0.0.1:8080/1.1/x.json")
        #expect(RequestTarget("ftp://example.com/") == nil)
        #expect(RequestTarget("http://127.0.0.1:8080/")?.isLoopback == true)
        #expect(RequestTarget("https://api.twitter.com/")?.isLoopback == false)
    }

    @Test func randomNoncesAreASCIIAndDistinct() throws {
        let signer = OAuth1Signer()
        let a = signer.nonce()
        let b = signer.nonce()
        #expect(a != b)
        #expect(a.count == 32 && a.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
    }
}
