import Foundation
import LinnetTestSupport
import Testing
import TwitterAPI

/// The v2 calls against the simulator's v2 face over loopback: reads joined with their
/// includes, paging, writes seen on both faces, and v2's errors in words.
@Suite(.serialized) struct V2ClientTests {
    @Test func readsArePagedAndJoined() async throws {
        let h = try await ClientHarness.start()
        defer { Task { await h.stop() } }
        let me = try await h.client.v2Me()
        #expect(me.screenName == h.server.credentials.screenName)
        let first = try await h.client.v2Home(userID: me.id, .init(maxResults: 20))
        #expect(first.tweets.count == 20)
        #expect(first.tweets.allSatisfy { !$0.user.screenName.isEmpty && $0.createdAt > 1_600_000_000 }, "authors joined, times read")
        #expect(first.tweets.map(\.id) == first.tweets.map(\.id).sorted(by: >))
        #expect(first.tweets.contains { $0.retweetedStatus != nil } || first.tweets.allSatisfy { !$0.text.hasPrefix("RT @") })
        let token = try #require(first.meta.nextToken)
        let second = try await h.client.v2Home(userID: me.id, .init(maxResults: 20, token: token))
        #expect(second.tweets.first.map { $0.id < first.tweets.last!.id } == true, "the next page starts below the last")
        // The same posts as the v1.1 face, in the same order.
        let v1 = try await h.client.homeTimeline(.init(count: 40))
        #expect((first.tweets + second.tweets).map(\.id) == v1.tweets.map(\.id))
        // The same text, but where v2 gives a long post whole and v1.1 its first part.
        #expect(zip(first.tweets, v1.tweets).allSatisfy { ($0.text == $1.text || $0.text.hasPrefix($1.text)) && $0.user.id == $1.user.id })
        // since_id: nothing newer than the newest.
        let none = try await h.client.v2Home(userID: me.id, .init(sinceID: first.tweets[0].id))
        #expect(none.tweets.isEmpty && none.meta.resultCount == 0)
        let mentions = try await h.client.v2Mentions(userID: me.id, .init(maxResults: 10))
        #expect(
            mentions.tweets.allSatisfy { t in t.entities.mentions.contains { $0.screenName.lowercased() == me.screenName.lowercased() } })
        #expect(
            h.client.rateLimits.window(for: "/2/users/:id/timelines/reverse_chronological")?.limit == 180,
            "\(h.client.rateLimits.all.keys.sorted())")
    }

    /// The generated world has edited posts and long posts: timelines show the newest version
    /// (naming the older), a lookup of the older names the newest, and a long post comes whole.
    @Test func editsAndLongPostsComeAsV2SendsThem() async throws {
        let h = try await ClientHarness.start()
        defer { Task { await h.stop() } }
        let me = try await h.client.v2Me()
        let all = try await h.v2WholeHome(of: me.id)
        let edited = try #require(all.first { !($0.extras?.olderVersions.isEmpty ?? true) }, "no edited post in home")
        let older = try #require(edited.extras?.olderVersions.first)
        #expect(!all.contains { $0.id == older }, "an older version is not in the timeline")
        let looked = try #require(try await h.client.v2Lookup([older]).tweets.first)
        #expect(looked.extras?.newestVersion == edited.id)
        #expect(looked.text.contains(" teh "))
        let long = try #require(all.first { $0.extras?.isLongPost == true }, "no long post in home")
        #expect(long.text.unicodeScalars.count > 280)
        #expect(long.text.hasSuffix("the wire is just a wire again."))
        // On v1.1 the same long post is its first part.
        #expect(try await h.client.show(long.id).text.count < long.text.count)
    }

    @Test func writesAreSeenOnBothFaces() async throws {
        let h = try await ClientHarness.start()
        defer { Task { await h.stop() } }
        let me = try await h.client.v2Me()
        let target = try #require(
            try await h.client.v2Home(userID: me.id, .init(maxResults: 10)).tweets.first { $0.retweetedStatus == nil })
        let id = try await h.client.v2Create(text: "hello from v2 & friends #linnet")
        let reply = try await h.client.v2Create(text: "a reply", replyTo: target.id)
        let quote = try await h.client.v2Create(text: "a quote", quote: target.id)
        // Read back on v1.1: the same post, the same text.
        let shown = try await h.client.show(id)
        #expect(shown.text == "hello from v2 &amp; friends #linnet")
        let lookup = try await h.client.v2Lookup([id, reply, quote])
        #expect(lookup.tweets.count == 3)
        #expect(lookup.tweets[0].entities.hashtags.map(\.text) == ["linnet"])
        #expect(lookup.tweets[1].inReplyToStatusID == target.id && lookup.tweets[1].inReplyToScreenName == target.user.screenName)
        #expect(lookup.tweets[2].quotedStatus?.id == target.id)
        #expect(lookup.tweets[1].extras?.conversationID == target.id || target.inReplyToStatusID != nil)
        // Like and repost, seen on v1.1.
        try await h.client.v2Like(userID: me.id, target.id)
        #expect(try await h.client.show(target.id).isFavorited)
        try await h.client.v2Repost(userID: me.id, target.id)
        #expect(try await h.client.show(target.id).isRetweeted)
        try await h.client.v2Unrepost(userID: me.id, target.id)
        try await h.client.v2Unlike(userID: me.id, target.id)
        let after = try await h.client.show(target.id)
        #expect(!after.isFavorited && !after.isRetweeted)
        // Delete: a lookup then gives the live post and an error for the deleted one.
        try await h.client.v2Delete(id)
        let partial = try await h.client.v2Lookup([id, reply])
        #expect(partial.tweets.map(\.id) == [reply])
        #expect(partial.errors.first?.kind == "resource-not-found" && partial.errors.first?.resourceID == id.description)
        // A search finds the reply by its conversation.
        let thread = try await h.client.v2Search("conversation_id:\(target.extras?.conversationID ?? target.id)")
        #expect(thread.tweets.contains { $0.id == reply } || target.extras?.conversationID != nil)
    }

    /// Follows change home on both faces; a muted author leaves home; bookmarks are kept newest
    /// first and page by position.
    @Test func followsMutesAndBookmarks() async throws {
        let h = try await ClientHarness.start()
        defer { Task { await h.stop() } }
        let me = try await h.client.v2Me()
        func homeAuthors() async throws -> Set<UserID> {
            Set(try await h.client.v2Home(userID: me.id, .init(maxResults: 100)).tweets.map(\.user.id))
        }
        let before = try await homeAuthors()
        // Unfollow someone followed: their posts leave home on both faces; follow again: back.
        let friend = try #require(before.first { $0 != me.id })
        try await h.client.v2Unfollow(userID: me.id, friend)
        #expect(!(try await homeAuthors()).contains(friend))
        #expect(!(try await h.client.homeTimeline(.init(count: 200)).tweets.contains { $0.user.id == friend }), "v1.1 home too")
        try await h.client.v2Follow(userID: me.id, friend)
        #expect(try await homeAuthors().contains(friend))
        // Mute someone followed: their posts leave home until unmuted.
        let followed = try #require(before.first { $0 != me.id })
        try await h.client.v2Mute(userID: me.id, followed)
        #expect(!(try await homeAuthors()).contains(followed))
        try await h.client.v2Unmute(userID: me.id, followed)
        #expect(try await homeAuthors().contains(followed))
    }

    /// A small photo in one request, a video in segments; both attached to a post and read back
    /// as its media.
    @Test func mediaUploadsSmallAndInSegments() async throws {
        let h = try await ClientHarness.start()
        defer { Task { await h.stop() } }
        let photo = Data([0x89, 0x50, 0x4E, 0x47] + [UInt8](repeating: 7, count: 20_000))
        let video = Data((0..<(1_300_000)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let p = try await h.client.v2UploadMedia(photo, mimeType: "image/png")
        let v = try await h.client.v2UploadMedia(video, mimeType: "video/mp4")
        let post = try await h.client.v2Create(text: "a linnet, and a video of it", mediaIDs: [p, v])
        let t = try #require(try await h.client.v2Lookup([post]).tweets.first)
        #expect(t.entities.media.map(\.type) == ["photo", "video"])
        // The photo's own format (PNG), as X serves it.
        #expect(t.entities.media.first?.mediaURL?.hasSuffix(".png") == true)
        // The photo went in one request; the video in three 512 KB segments.
        guard case .array(let log) = try JSONValue.parse(try await h.control("GET", "/_sim/requests").body) else { return }
        let paths = log.compactMap { $0["path"]?.stringValue }
        #expect(paths.filter { $0 == "/2/media/upload" }.count == 1)
        #expect(paths.filter { $0.hasSuffix("/append") }.count == 3)
        // Segments that do not add up to what was announced are refused at finalize.
        let start = try await h.client.call(
            "POST", "/2/media/upload/initialize", [],
            json: Data(#"{"media_type":"video/mp4","total_bytes":10,"media_category":"tweet_video"}"#.utf8))
        let id = try #require(try JSONValue.parse(start)["data"]?["id"]?.stringValue)
        do {
            _ = try await h.client.call("POST", "/2/media/upload/\(id)/finalize", [], json: Data("{}".utf8))
            Issue.record("an empty upload was finalized")
        } catch let e as APIError {
            #expect(e.httpStatus == 400 && e.message.contains("mismatch"))
        }
        await #expect(throws: APIError.self) { _ = try await h.client.v2Create(text: "no such media", mediaIDs: ["123"]) }
    }

    @Test func listsAndDirectMessages() async throws {
        let h = try await ClientHarness.start()
        defer { Task { await h.stop() } }
        let me = try await h.client.v2Me()
        let owned = try await h.client.v2OwnedLists(userID: me.id)
        #expect(owned.map(\.name) == ["Friends", "Birds"])
        #expect(owned.allSatisfy { $0.ownerID == me.id && $0.memberCount > 0 })
        let followed = try await h.client.v2FollowedLists(userID: me.id)
        #expect(followed.count == 1 && followed[0].ownerID != me.id)
        let posts = try await h.client.v2ListPosts(listID: owned[0].id, .init(maxResults: 20))
        #expect(!posts.tweets.isEmpty)
        #expect(Set(posts.tweets.map(\.user.id)).count <= owned[0].memberCount)
        // Messages: three waiting; a reply goes into the same conversation.
        let inbox = try await h.client.v2Messages()
        #expect(inbox.count == 3 && inbox.contains { $0.text == "Saw a linnet today 🐦" })
        let from = try #require(inbox.first?.senderID)
        let sent = try await h.client.v2SendMessage(to: from, text: "See you there & thanks")
        let conversation = try await h.client.v2Messages(with: from)
        #expect(conversation.first?.id == sent && conversation.first?.text == "See you there & thanks")
        #expect(conversation.allSatisfy { $0.conversationID == conversation[0].conversationID })
        #expect(conversation.first?.senderID == me.id)
    }

    @Test func errorsAreSaidInWords() async throws {
        let h = try await ClientHarness.start()
        defer { Task { await h.stop() } }
        let me = try await h.client.v2Me()
        do {
            _ = try await h.client.v2Home(userID: me.id, .init(maxResults: 500))
            Issue.record("max_results 500 was accepted")
        } catch let e as APIError {
            #expect(e.httpStatus == 400 && e.problemType == "invalid-request")
            #expect(e.message.contains("max_results"), "\(e.message)")
        }
        let c = h.server.credentials
        let token = try await AppOnlyFlow(http: h.client.http, apiBase: h.server.baseURL).obtain(
            consumerKey: c.consumerKey, consumerSecret: c.consumerSecret)
        let app = h.client(auth: .bearer(token))
        do {
            _ = try await app.v2Home(userID: me.id)
            Issue.record("an app token read a home timeline")
        } catch let e as APIError {
            #expect(e.httpStatus == 403 && e.problemType == "unsupported-authentication")
        }
        // An app token may search.
        #expect(try await app.v2Search("the").meta.resultCount != nil)
        do {
            try await h.client.v2Delete(TweetID(1))
            Issue.record("deleting a post that does not exist succeeded")
        } catch let e as APIError {
            #expect(e.httpStatus == 404 && e.message.contains("Could not find"))
        }
    }
}
