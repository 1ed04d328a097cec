import Screen
import Timeline
import TwitterAPI

/// Profiles: opened on a tweet's author, with follow, mute and block (each asked first), the
/// person's tweets and likes, and who follows them.
extension Reducer {
    static func openProfile(_ name: String, _ s: inout AppState) -> [Effect] {
        s.notice = Notice(Words.loadingProfile(name), isError: false, at: s.now)
        return [.loadProfile(name)]
    }

    static func profileKeys(_ command: Command, _ s: inout AppState) -> [Effect] {
        guard let p = s.profile else { return [] }
        let u = p.user
        func ask(_ make: (Relationship) -> PeopleAction) -> [Effect] {
            if s.readOnly {
                s.notice = Notice(SyncEngine.appOnlyWrites, isError: false, at: s.now)
            } else if let r = p.relationship {
                s.question = .people(make(r))
            } else {
                s.notice = Notice(Words.thatIsYou, isError: false, at: s.now)
            }
            return []
        }
        switch command {
        case .cancel: s.profile = nil
        case .follow:
            if let why = s.cannot[.follow], !s.readOnly { return said(why, &s) }
            return ask { .follow(u, !$0.following) }
        case .muteUser: return ask { .mute(u, !$0.muting) }
        case .block:
            if let why = s.cannot[.block], !s.readOnly {
                s.notice = Notice(why, isError: false, at: s.now)
                return []
            }
            return ask { .block(u, !$0.blocking) }
        case .author:
            s.profile = nil
            return openPane(.user(u.screenName), &s)
        case .authorLikes:
            s.profile = nil
            return openPane(.likes(u.screenName), &s)
        case .directMessages:
            guard p.relationship != nil else {
                s.notice = Notice(Words.thatIsYou, isError: false, at: s.now)
                return []
            }
            s.profile = nil
            return writeMessage(to: MessageTarget(id: u.id, screenName: u.screenName), &s)
        case .lists:
            s.notice = Notice(Words.loadingListsOf(TweetCard.clean(u.screenName)), isError: false, at: s.now)
            return [.loadLists(of: u)]
        case .followers, .following:
            s.notice = Notice(
                Words.loadingPeople(TweetCard.clean(u.screenName), followers: command == .followers), isError: false, at: s.now)
            return [.loadPeople(u, followers: command == .followers, next: nil)]
        default: break
        }
        return []
    }

    /// What came back from the engine about people.
    static func people(_ action: Action, _ s: inout AppState) -> [Effect] {
        switch action {
        case .profileLoaded(let p):
            s.profile = p
            s.links = nil
            if s.notice.map({ $0.text.hasPrefix("Asking for") }) ?? false { s.notice = nil }
        case .peopleFinished(let a, .success(let p)):
            if s.profile?.user.id == p.user.id { s.profile = p }
            s.notice = Notice(Words.peopleDone(a), isError: false, at: s.now)
        case .peopleFinished(_, .failure(let e)):
            s.notice = Notice(e.message, isError: true, at: s.now)
        case .peopleLoaded(let of, let followers, let page, let appending):
            if appending, var picker = s.links, case .people(let who, let f, _) = picker.purpose, who.id == of.id, f == followers {
                picker.items += LinkPicker.people(page.users, of: of, followers: followers, next: nil).items
                picker.purpose = .people(of: of, followers: followers, next: page.next)
                s.links = picker
            } else if page.users.isEmpty {
                s.notice = Notice(Words.nobody, isError: false, at: s.now)
            } else {
                s.links = LinkPicker.people(page.users, of: of, followers: followers, next: page.next)
                if s.notice?.text == Words.loadingPeople(TweetCard.clean(of.screenName), followers: followers) { s.notice = nil }
            }
        default: break
        }
        return []
    }
}
