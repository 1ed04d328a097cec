extension TweetBuilder {
    /// The fields a tweet is read from, and their names in v1.1's JSON.
    enum Field: CaseIterable {
        case idString, id, createdAt, timestampMs, user, text, fullText, displayTextRange, entities
        case extendedEntities, extendedTweet, replyStatusString, replyStatus, replyUserString, replyUser
        case replyScreenName, retweetedStatus, quotedStatus, quotedStatusIDString, retweetCount
        case favoriteCount, favorited, retweeted, truncated, lang

        var name: StaticString {
            switch self {
            case .idString: "id_str"
            case .id: "id"
            case .createdAt: "created_at"
            case .timestampMs: "timestamp_ms"
            case .user: "user"
            case .text: "text"
            case .fullText: "full_text"
            case .displayTextRange: "display_text_range"
            case .entities: "entities"
            case .extendedEntities: "extended_entities"
            case .extendedTweet: "extended_tweet"
            case .replyStatusString: "in_reply_to_status_id_str"
            case .replyStatus: "in_reply_to_status_id"
            case .replyUserString: "in_reply_to_user_id_str"
            case .replyUser: "in_reply_to_user_id"
            case .replyScreenName: "in_reply_to_screen_name"
            case .retweetedStatus: "retweeted_status"
            case .quotedStatus: "quoted_status"
            case .quotedStatusIDString: "quoted_status_id_str"
            case .retweetCount: "retweet_count"
            case .favoriteCount: "favorite_count"
            case .favorited: "favorited"
            case .retweeted: "retweeted"
            case .truncated: "truncated"
            case .lang: "lang"
            }
        }

        /// The field `key` names, found by its length first (a jump), then among the one to
        /// four names of that length: a `switch` over the names compared every length in turn,
        /// and a key not read went past all 25.
        init?(_ key: JSONKey) {
            let found: Field? =
                switch key.bytes.count {
                case 2: key.equals("id") ? .id : nil
                case 4: key.equals("user") ? .user : key.equals("text") ? .text : key.equals("lang") ? .lang : nil
                case 6: key.equals("id_str") ? .idString : nil
                case 8: key.equals("entities") ? .entities : nil
                case 9:
                    key.equals("full_text")
                        ? .fullText
                        : key.equals("favorited")
                            ? .favorited : key.equals("retweeted") ? .retweeted : key.equals("truncated") ? .truncated : nil
                case 10: key.equals("created_at") ? .createdAt : nil
                case 12: key.equals("timestamp_ms") ? .timestampMs : nil
                case 13: key.equals("retweet_count") ? .retweetCount : key.equals("quoted_status") ? .quotedStatus : nil
                case 14: key.equals("extended_tweet") ? .extendedTweet : key.equals("favorite_count") ? .favoriteCount : nil
                case 16: key.equals("retweeted_status") ? .retweetedStatus : nil
                case 17: key.equals("extended_entities") ? .extendedEntities : nil
                case 18: key.equals("display_text_range") ? .displayTextRange : nil
                case 19: key.equals("in_reply_to_user_id") ? .replyUser : nil
                case 20: key.equals("quoted_status_id_str") ? .quotedStatusIDString : nil
                case 21: key.equals("in_reply_to_status_id") ? .replyStatus : nil
                case 23:
                    key.equals("in_reply_to_user_id_str")
                        ? .replyUserString : key.equals("in_reply_to_screen_name") ? .replyScreenName : nil
                case 25: key.equals("in_reply_to_status_id_str") ? .replyStatusString : nil
                default: nil
                }
            guard let found else { return nil }
            self = found
        }
    }
}
