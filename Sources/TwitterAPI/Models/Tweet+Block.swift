extension Tweet {
    /// A tweet's bytes while it is made: the text's UTF-8, its entities as kept
    /// (`Entities.compact`), then, for a reply only, the status and user it answers (LEB128,
    /// 0 for none) and the name (0 for none, else its length + 1, then UTF-8). The tweet made
    /// from it owns `bytes` and frees them.
    package struct Block {
        /// The entities as decoders write them (`Entities.packed()`), or as a tweet keeps them.
        package enum Source {
            case packed(UnsafeBufferPointer<UInt8>)
            case compacted(UnsafeBufferPointer<UInt8>)
        }

        struct Reply {
            var status: TweetID?
            var user: UserID?
            var name: String?
        }

        let bytes: UnsafeMutablePointer<UInt8>?
        let textCount: Int
        let entityCount: Int
        /// Bytes after the entities (0 unless a reply).
        let replyCount: Int

        init(text: UnsafeBufferPointer<UInt8>, entities: Source, id: TweetID, reply: Reply) {
            switch entities {
            case .compacted(let kept):
                self.init(text: text, compacted: kept, reply: reply)
            case .packed(let packed):
                self = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 2 * packed.count + 16) { room in
                    let n = Entities.compact(packed, text: text, id: id, into: room)
                    return Block(text: text, compacted: UnsafeBufferPointer(rebasing: room[..<n]), reply: reply)
                }
            }
        }

        private init(text: UnsafeBufferPointer<UInt8>, compacted: UnsafeBufferPointer<UInt8>, reply: Reply) {
            var name = reply.name
            let isReply = reply.status != nil || reply.user != nil || name != nil
            let status = reply.status?.rawValue ?? 0
            let user = reply.user?.rawValue ?? 0
            textCount = text.count
            entityCount = compacted.count
            let nameCount = name?.utf8.count ?? 0
            let tail = isReply ? lebLength(status) + lebLength(user) + lebLength(UInt64(nameCount) + 1) + nameCount : 0
            replyCount = tail
            let total = text.count + compacted.count + tail
            guard total > 0 else {
                bytes = nil
                return
            }
            let to = UnsafeMutablePointer<UInt8>.allocate(capacity: total)
            bytes = to
            if let base = text.baseAddress, text.count > 0 { to.initialize(from: base, count: text.count) }
            if let base = compacted.baseAddress, compacted.count > 0 { (to + text.count).initialize(from: base, count: compacted.count) }
            guard isReply else { return }
            var at = text.count + compacted.count
            let out = UnsafeMutableBufferPointer(start: to, count: total)
            writeLEB128(status, out, &at)
            writeLEB128(user, out, &at)
            writeLEB128(name == nil ? 0 : UInt64(nameCount) + 1, out, &at)
            name?.withUTF8 { copyBytes($0, out, &at) }
            assert(at == total, "a tweet's bytes were counted wrong")
        }

        /// What a reply's bytes say it answers.
        static func reply(_ bytes: UnsafeBufferPointer<UInt8>) -> Reply {
            var r = PackReader(bytes: bytes)
            let status = r.unsigned()
            let user = r.unsigned()
            return Reply(status: status == 0 ? nil : TweetID(status), user: user == 0 ? nil : UserID(user), name: r.optionalString())
        }
    }
}
