import FoundationEssentials
import TwitterAPI

#if canImport(Glibc)
    import Glibc
#endif

/// Following, muting and blocking someone: writes like any other, refused the same way where
/// the account or its access level cannot make them.
public enum PeopleAction: Sendable, Equatable {
    case follow(User, Bool)
    case mute(User, Bool)
    case block(User, Bool)

    public var user: User {
        switch self {
        case .follow(let u, _), .mute(let u, _), .block(let u, _): return u
        }
    }

    public var kind: WriteAction.Kind {
        switch self {
        case .follow: return .follow
        case .mute: return .mute
        case .block: return .block
        }
    }
}

extension SyncEngine {
    /// A person's profile, with how this account stands to them.
    public func profile(_ screenName: String) async throws -> Profile {
        try await client.profile(screenName: screenName, me: isAppOnly ? nil : account)
    }

    /// Who follows a person, or whom they follow, a page at a time.
    public func people(of user: User, followers: Bool, next: String?) async throws -> PeoplePage {
        try await client.people(of: user, followers: followers, next: next)
    }

    /// Carries out a follow, mute or block and answers with the profile as it now stands; a
    /// mute changes what the panes hide at once.
    public func perform(_ action: PeopleAction) async -> Result<Profile, SyncError> {
        let doing = SyncError.Doing.people(action)
        if isAppOnly { return .failure(SyncError(.appOnly, doing: doing)) }
        if let words = refusedByAccessLevel[action.kind] {
            return .failure(SyncError(.accessLevel(words), doing: doing, status: 403))
        }
        if case .block = action, let why = client.cannotBlock {
            return .failure(SyncError(.noSuchCall(why), doing: doing, status: 403))
        }
        do {
            switch action {
            case .follow(let u, let on): try await client.setFollowing(on, user: u.id, me: account.id)
            case .mute(let u, let on):
                try await client.setMuted(on, user: u.id, me: account.id)
                var muted = await store.mutedUsers
                if on { muted.insert(u.id) } else { muted.remove(u.id) }
                await store.setMutedUsers(muted)
            case .block(let u, let on): try await client.setBlocked(on, user: u.id)
            }
        } catch let e as APIError {
            if e.tierRestriction == .notEnrolled, action.kind == .follow { refusedByAccessLevel[.follow] = Self.words(e) }
            return .failure(SyncError.failed(e, doing: doing))
        } catch {
            return .failure(SyncError.failed(error, doing: doing))
        }
        do {
            return .success(try await profile(action.user.screenName))
        } catch {
            // Done, though the profile could not be read again: what was asked is what holds.
            var r = Relationship()
            switch action {
            case .follow(_, let on): r.following = on
            case .mute(_, let on): r.muting = on
            case .block(_, let on): r.blocking = on
            }
            return .success(Profile(user: action.user, relationship: r))
        }
    }
}
