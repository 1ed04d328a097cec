import FoundationEssentials
import Timeline
import TwitterAPI

#if canImport(Glibc)
    import Glibc
#endif

/// The effects that ask the engine something and wait for its answer: each runs in a task of
/// its own (so it holds up nothing queued behind it) and hands its answer to the loop.
extension App {
    /// Runs `work` off the loop; what it returns is the loop's next action.
    func answer(_ work: @escaping @Sendable () async -> Action) {
        let inbox = self.inbox
        let wake = self.wake
        effects.add {
            Task {
                inbox.post(await work())
                wake()
            }
        }
    }

    func performNetwork(_ effect: Effect) {
        let engine = self.engine
        switch effect {
        case .perform(let write): answer { .writeFinished(write, await engine.perform(write)) }
        case .sendMessage(let text, let to): answer { .messageSent(to, await engine.sendMessage(text, to: to.id)) }
        case .loadOlderMessages:
            answer {
                await engine.loadOlderMessages()
                return .olderMessagesDone
            }
        case .people(let action): answer { .peopleFinished(action, await engine.perform(action)) }
        case .loadProfile(let name):
            answer {
                do { return .profileLoaded(try await engine.profile(name)) } catch {
                    return .notice(Words.profileFailed(Words.say(error)), isError: true)
                }
            }
        case .loadPeople(let user, let followers, let next):
            answer {
                do {
                    let page = try await engine.people(of: user, followers: followers, next: next)
                    return .peopleLoaded(user, followers: followers, page, appending: next != nil)
                } catch {
                    return .notice(Words.peopleFailed(Words.say(error)), isError: true)
                }
            }
        case .loadLists(let of):
            answer {
                do { return .listsLoaded(try await engine.lists(of: of), of: of) } catch {
                    return .notice(Words.listsFailed(Words.say(error)), isError: true)
                }
            }
        case .postThread(let parts, let first, let media):
            // Progress goes to the loop as each tweet is in; the end is the answer.
            let inbox = self.inbox
            let wake = self.wake
            answer {
                var sent: [Tweet] = []
                for (i, text) in parts.enumerated() {
                    let write = WriteAction.post(text, inReplyTo: sent.last?.id ?? first, media: i == 0 ? media : [])
                    switch await engine.perform(write) {
                    case .success(let t):
                        sent.append(t)
                        inbox.post(.threadProgress(sent: sent.count))
                        wake()
                    case .failure(let e): return .threadFinished(sent: sent, of: parts.count, error: e)
                    }
                }
                return .threadFinished(sent: sent, of: parts.count, error: nil)
            }
        default: break
        }
    }
}
