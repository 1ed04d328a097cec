import Foundation
import LinnetTestSupport
import Testing
import TwitterAPI
import TwitterSimulator

/// Every typed REST call against the simulator over loopback, through libcurl.
@Suite(.serialized) struct RESTClientTests {
    @Test func readingCalls() async throws {
        let h = try await ClientHarness.start()
        defer { Task { await h.stop() } }
        let me = try await h.client.verifyCredentials()
        #expect(me.screenName == "linnet_demo")
        let home = try await h.client.homeTimeline(.init(count: 20))
        #expect(home.tweets.map(\.id.description) == Array(try await h.truth("home").prefix(20)))
        let older = try await h.client.homeTimeline(.init(count: 5, maxID: TweetID(home.tweets.last!.id.rawValue - 1)))
        #expect(older.tweets.map(\.id.description) == Array(try await h.truth("home")[20..<25]))
        let mentions = try await h.client.mentionsTimeline(.init(count: 200))
        #expect(mentions.tweets.map(\.id.description) == Array(try await h.truth("mentions").prefix(200)))
        let ada = try await h.client.userTimeline(screenName: "ada", .init(count: 10))
        #expect(!ada.tweets.isEmpty && ada.tweets.allSatisfy { $0.user.screenName == "ada" })
        let one = try await h.client.show(home.tweets[0].id)
        #expect(one.id == home.tweets[0].id && !one.isTruncated)
        #expect(try await h.client.userShow(screenName: "ada").screenName == "ada")
        let limits = try await h.client.rateLimitStatus()
        #expect(limits.limit(for: "/statuses/home_timeline")?.remaining == 13)
        #expect(h.client.rateLimits.window(for: "/statuses/home_timeline")?.remaining == 13)
        #expect(h.client.rateLimits.window(for: "/statuses/show/:id")?.limit == 900)
    }

    @Test func writingCalls() async throws {
        let h = try await ClientHarness.start()
        defer { Task { await h.stop() } }
        let posted = try await h.client.update("from libcurl: ünïcödé & ☃ + spaces")
        #expect(posted.text == "from libcurl: ünïcödé &amp; ☃ + spaces")
        #expect(posted.displayText.text == "from libcurl: ünïcödé & ☃ + spaces")
        let target = try #require(try await h.client.mentionsTimeline(.init(count: 1)).tweets.first)
        let reply = try await h.client.update("a reply", inReplyTo: target.id)
        #expect(reply.inReplyToStatusID == target.id && reply.displayText.text == "a reply")
        #expect(try await h.client.favorite(target.id).isFavorited)
        #expect(!(try await h.client.unfavorite(target.id).isFavorited))
        let rt = try await h.client.retweet(target.id)
        #expect(rt.retweetedStatus?.id == target.id)
        _ = try await h.client.unretweet(target.id)
        _ = try await h.client.destroy(posted.id)
        do {
            _ = try await h.client.show(posted.id)
            Issue.record("a deleted tweet must be gone")
        } catch let e as APIError {
            #expect(e.httpStatus == 404 && e.code == 144)
            #expect(e.explanation.contains("deleted"))
        }
    }

    @Test func searchPagingFollowsNextResults() async throws {
        let h = try await ClientHarness.start()
        defer { Task { await h.stop() } }
        var page = try await h.client.search("shipped", count: 4)
        var seen: [TweetID] = page.statuses.map(\.id)
        var pages = 1
        while let next = try await h.client.searchNext(page), pages < 50 {
            page = next
            seen += next.statuses.map(\.id)
            pages += 1
        }
        #expect(pages > 1)
        #expect(Set(seen).count == seen.count, "pages must not overlap")
        #expect(seen == seen.sorted(by: >))
    }

    @Test func genericRequestAndErrors() async throws {
        let h = try await ClientHarness.start()
        defer { Task { await h.stop() } }
        let raw = try await h.client.request(method: "GET", path: "users/show", parameters: [("screen_name", "ada")])
        #expect(raw["screen_name"]?.stringValue == "ada")
        do {
            _ = try await h.client.request(method: "GET", path: "no/such_endpoint")
            Issue.record("expected 404")
        } catch let e as APIError {
            #expect(e.httpStatus == 404 && e.code == 34)
        }
        let tooLong = String(repeating: "x", count: 281)
        await #expect(throws: APIError.self) { try await h.client.update(tooLong) }
    }

    @Test func clockSkewIsLearntFromDateAndRetriedOnce() async throws {
        let h = try await ClientHarness.start()
        defer { Task { await h.stop() } }
        _ = try await h.control("POST", "/_sim/clock", body: "offset=3600")
        let me = try await h.client.verifyCredentials()
        #expect(me.screenName == "linnet_demo")
        #expect(abs(h.client.serverClockOffset - 3600) <= 2)
    }

    @Test func bearerAuthReadsButCannotPost() async throws {
        let h = try await ClientHarness.start()
        defer { Task { await h.stop() } }
        let c = h.server.credentials
        let token = try await AppOnlyFlow(http: h.client.http, apiBase: h.server.baseURL).obtain(
            consumerKey: c.consumerKey, consumerSecret: c.consumerSecret)
        let app = h.client(auth: .bearer(token))
        #expect(!(try await app.search("from:ada").statuses.isEmpty))
        do {
            _ = try await app.homeTimeline()
            Issue.record("bearer must not read home")
        } catch let e as APIError {
            #expect(e.httpStatus == 403 && e.code == 220)
        }
        try await AppOnlyFlow(http: h.client.http, apiBase: h.server.baseURL).invalidate(
            token, consumerKey: c.consumerKey, consumerSecret: c.consumerSecret)
        await #expect(throws: APIError.self) { try await app.search("from:ada") }
    }

    @Test func transportFailuresHaveTheirOwnWords() async throws {
        let http = HTTPClient()
        do {
            _ = try await http.send(HTTPRequest(method: "GET", url: "http://127.0.0.1:9/x"))
            Issue.record("port 9 should refuse")
        } catch let e as TransportError {
            guard case .refused = e else {
                Issue.record("got \(e)")
                return
            }
            #expect(e.description.contains("cannot connect"))
        }
        do {
            _ = try await http.send(HTTPRequest(method: "GET", url: "http://api.twitter.example/1.1/x.json"))
            Issue.record("plain http off loopback must be refused")
        } catch let e as TransportError {
            #expect(e == .insecure("api.twitter.example"))
        }
        do {
            _ = try await http.send(HTTPRequest(method: "GET", url: "https://no-such-host.invalid/"))
            Issue.record("an unresolvable name must fail")
        } catch let e as TransportError {
            guard case .dns = e else {
                Issue.record("got \(e)")
                return
            }
        }
    }

    @Test func traceRedactsEverySecret() async throws {
        let h = try await ClientHarness.start()
        defer { Task { await h.stop() } }
        _ = try await h.client.verifyCredentials()
        _ = try await h.client.update("trace me")
        let c = h.server.credentials
        let text = h.traced.all.joined(separator: "\n")
        #expect(text.contains("> GET"))
        #expect(text.contains("Authorization: OAuth [redacted]"))
        for secret in [c.accessToken, c.accessTokenSecret, c.consumerSecret, c.consumerKey] {
            #expect(!text.contains(secret), "a secret leaked into the trace")
        }
        #expect(
            Redactor.body("oauth_token=abc&oauth_token_secret=def&user_id=1")
                == "oauth_token=[redacted]&oauth_token_secret=[redacted]&user_id=1")
        #expect(Redactor.body(#"{"access_token":"AAAA","token_type":"bearer"}"#) == #"{"access_token":"[redacted]","token_type":"bearer"}"#)
        #expect(Redactor.url("https://x/y?x_auth_password=hunter2&a=1") == "https://x/y?x_auth_password=[redacted]&a=1")
    }
}
