/// A message from the v1.1 streaming API.
public enum StreamMessage: Sendable {
    case tweet(Tweet)
    /// A post of API v2's filtered stream, with the tags of the rules it matched.
    case matched(Tweet, tags: [String])
    /// A tweet was deleted; remove it everywhere (it may arrive before the tweet).
    case delete(statusID: TweetID, userID: UserID?)
    /// Tweets matched but not delivered since the connection started.
    case limit(track: Int)
    /// The server is closing the stream; `code` is one of Twitter's disconnect codes.
    case disconnect(code: Int, streamName: String?, reason: String)
    /// A stall warning: the client is reading too slowly.
    case warning(code: String, message: String, percentFull: Int?)
    /// User streams: the ids the user follows, sent first.
    case friends([UserID])
    /// User streams: an event such as `favorite` or `follow`.
    case event(name: String, sourceUserID: UserID?, targetUserID: UserID?, targetTweet: Tweet?)
    /// Location data to remove up to a tweet id.
    case scrubGeo(userID: UserID, upToStatusID: TweetID)
    case statusWithheld(id: TweetID, countries: [String])
    case userWithheld(id: UserID, countries: [String])
    /// A well-formed message of a kind Linnet does not know; its top-level keys.
    case unknown(keys: [String])

    /// Plain words for a disconnect code (docs/PROTOCOL.md §6).
    public static func disconnectMeaning(_ code: Int) -> String {
        switch code {
        case 1: return "the stream server shut down"
        case 2: return "another connection opened with the same credentials"
        case 3: return "the stream was closed by a control request"
        case 4: return "the client read too slowly and the stream stalled"
        case 5: return "the stream ended normally"
        case 6: return "the access token was revoked"
        case 7: return "the same credentials connected from elsewhere"
        case 9: return "too many messages were lost"
        case 10: return "the stream server hit an internal error"
        case 11: return "the stream broker stalled"
        case 12: return "the server is shedding load"
        default: return "the server closed the stream (code \(code))"
        }
    }
}
