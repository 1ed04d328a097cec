/// How a simulator instance is set up.
public struct SimulatorConfiguration: Sendable {
    /// Address to bind; loopback unless told otherwise.
    public var host = "127.0.0.1"
    /// Port to bind; 0 picks a free one.
    public var port: UInt16 = 0
    /// Seed of the generated world: the same seed builds the same users, tweets and keys.
    public var seed: UInt64 = 1
    /// Generated users besides the demo user.
    public var users = 40
    /// Tweets in the backlog.
    public var backlogTweets = 400
    /// When the newest backlog tweet was written (Unix seconds): the backlog is dated to lead
    /// up to it, so a reader shows "4m" and "2h" rather than a fixed date. Nil dates the
    /// backlog from 2026-01-01, the same on every run.
    public var backlogEndsAt: Double?
    /// New tweets per minute while running (0 for none).
    public var tweetsPerMinute: Double = 6
    /// Seconds between keep-alive newlines on streams.
    public var keepAliveSeconds: Double = 30
    /// Length of a rate-limit window in seconds (Twitter's is 900).
    public var rateLimitWindowSeconds: Double = 900
    /// Largest request body accepted, in bytes.
    public var maxBodyBytes = 1 << 20
    /// Bounds on request heads and on how long a connection may idle or dribble.
    public var httpLimits = SimHTTPLimits()
    /// Allowed clock difference for OAuth timestamps, in seconds.
    public var timestampWindowSeconds: Int64 = 300
    /// Where the world is saved and loaded (JSON); nil keeps it in memory only.
    public var statePath: String?
    /// Append every API request here as a JSON line (method, path, query, content type, body;
    /// the Authorization header's scheme only), for checking what a client sends.
    public var recordRequestsPath: String?
    /// Faults active from the start.
    public var faults = FaultPlan()
    /// The access level the simulated keys have, with today's restrictions (docs/PROTOCOL-V2.md §1).
    public enum Tier: String, Sendable, CaseIterable {
        /// Pay-per-use: no v1.1 but media and OAuth (453), replies only where mentioned, no
        /// likes, follows or quote posts.
        case selfServe = "self-serve"
        case basic, pro
        /// Everything, v1.1 included (the default, so v1.1 clients work).
        case enterprise
    }
    public var tier = Tier.enterprise

    /// OAuth 2.0: the demo app as a public client (PKCE, no secret), and as a confidential one.
    public var oauth2ClientID = "bGlubmV0LWRlbW8tY2xpZW50"
    public var oauth2ConfidentialClientID = "bGlubmV0LWNvbmZpZGVudGlhbA"
    public var oauth2ConfidentialClientSecret = "c2ltdWxhdGVkLWNsaWVudC1zZWNyZXQtZm9yLWxpbm5ldA"
    /// Redirect URIs the demo app registered: a redirect must match one exactly.
    public var oauth2RedirectURIs = ["http://localhost:8080/callback", "http://127.0.0.1:8080/callback"]
    /// Seconds an access token lives (X: 2 h) and a code may wait to be exchanged (X: 30 s).
    public var oauth2AccessTokenSeconds: Double = 7200
    public var oauth2CodeSeconds: Double = 30

    public init() {}

    /// A small, still world: no live tweets, keep-alives every 0.3 s. Tests and benchmarks
    /// start from this so that what they see is only what they cause.
    public static var quiet: SimulatorConfiguration {
        var c = SimulatorConfiguration()
        c.tweetsPerMinute = 0
        c.keepAliveSeconds = 0.3
        c.users = 12
        c.backlogTweets = 150
        return c
    }
}

/// Ready-to-use keys for the simulated world.
public struct SimulatorCredentials: Sendable, Equatable, Codable {
    public var consumerKey: String
    public var consumerSecret: String
    /// A consumer allowed to use xAuth.
    public var xauthConsumerKey: String
    public var xauthConsumerSecret: String
    /// The demo user's access token.
    public var accessToken: String
    public var accessTokenSecret: String
    public var screenName: String
    public var userID: UInt64
    /// The demo user's password on the authorize page and for xAuth.
    public var password: String
}
