import TweetText
import TwitterAPI

/// Who may reply to a post, as far as Linnet can tell before sending: the author's
/// `reply_settings`, and on a self-serve key X's rule that a reply needs the author to have
/// mentioned or quoted the replier (docs/PROTOCOL-V2.md §1).
public enum ReplyRules {
    /// Why `me` may not reply to `parent`, in words; nil where Linnet cannot tell that it may not
    /// (the server then decides). `engagedOnly`: the key's access level has X's rule.
    public static func refusal(replyingTo parent: Tweet, me: User, engagedOnly: Bool) -> String? {
        if parent.user.id == me.id { return nil }
        let myName = me.screenName.lowercased()
        let mentioned = parent.entities.mentions.contains { $0.userID == me.id || $0.screenName.lowercased() == myName }
        let author = "@" + Sanitizer.visible(parent.user.screenName, keepNewlines: false)
        if parent.extras?.replySettings == "mentionedUsers", !mentioned {
            return "\(author) lets only the people the post mentions reply to it."
        }
        if engagedOnly, !mentioned, parent.quotedStatus?.user.id != me.id {
            return "On your key's access level you may only reply where the author mentioned or quoted you, and \(author) did not here."
        }
        return nil
    }
}
