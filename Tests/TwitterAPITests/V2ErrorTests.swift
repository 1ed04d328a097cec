import Foundation
import Testing

@testable import TwitterAPI

/// v2 error answers become `APIError`s in plain words; the access-level restrictions are named.
@Suite struct V2ErrorTests {
    func error(_ status: Int, _ json: String) -> APIError { APIError(httpStatus: status, body: Data(json.utf8)) }

    @Test func problemObjectsGiveTheirDetail() {
        let e = error(
            404,
            #"{"errors":[{"value":"1","detail":"Could not find tweet with id: [1].","title":"Not Found Error","resource_type":"tweet","parameter":"id","resource_id":"1","type":"https://api.twitter.com/2/problems/resource-not-found"}]}"#
        )
        #expect(e.message == "Could not find tweet with id: [1].")
        #expect(e.problemType == "resource-not-found" && e.tierRestriction == nil)
        let alone = error(401, #"{"title":"Unauthorized","type":"about:blank","status":401,"detail":"Unauthorized"}"#)
        #expect(alone.message == "Unauthorized" && alone.problemType == nil)
        #expect(alone.explanation.contains("credentials"))
    }

    @Test func accessLevelRestrictionsAreNamed() {
        let v1 = error(
            403,
            #"{"errors":[{"message":"You currently have access to a subset of X API V2 endpoints and limited v1.1 endpoints (e.g. media post, oauth) only. If you need access to this endpoint, you may need a different access level.","code":453}]}"#
        )
        #expect(v1.tierRestriction == .v1NotOnTier && v1.explanation.contains("API v2"))
        let reply = error(
            403,
            #"{"detail":"Reply to this conversation is not allowed because you have not been mentioned or otherwise engaged by the author of the post you are replying to.","type":"about:blank","title":"Forbidden","status":403}"#
        )
        #expect(reply.tierRestriction == .replyNotAllowed && reply.explanation.contains("mentioned or quoted"))
        let forbidden = error(
            403,
            #"{"client_id":"1","detail":"When authenticating requests to the Twitter API v2 endpoints, you must use keys and tokens from a Twitter developer App that is attached to a Project.","registration_url":"https://developer.twitter.com/en/docs/projects/overview","title":"Client Forbidden","required_enrollment":"Appropriate Level of API Access","reason":"client-not-enrolled","type":"https://api.twitter.com/2/problems/client-forbidden"}"#
        )
        #expect(forbidden.tierRestriction == .notEnrolled)
        let capped = error(
            429,
            #"{"title":"UsageCapExceeded","detail":"Usage cap exceeded: Monthly product cap","type":"https://api.twitter.com/2/problems/usage-capped","period":"Monthly","scope":"Product"}"#
        )
        #expect(capped.tierRestriction == .usageCapped && capped.message.contains("Monthly"))
    }
}
