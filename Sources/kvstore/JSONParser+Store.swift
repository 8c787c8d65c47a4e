import CofferJSON

extension JSONParser.Options {
    /// What `kvstore import` and the `strings` values accept: documents written by other tools may
    /// nest deeper than key files and name a key twice (the later value wins, as it would in MMKV).
    static let storeDocuments = JSONParser.Options(maximumDepth: 64, allowsDuplicateMembers: true)
}
