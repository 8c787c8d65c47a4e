/// What an HTTP proxy's refusal of a `CONNECT` tunnel means, in words.
enum ProxyDiagnosis {
    /// The sentence for a refused tunnel: the proxy's status when it could be had.
    static func refusedTunnel(proxy: ProxySettings.Proxy, target: String, status: String?) -> String {
        let answered = status.map { "it answered \($0)" } ?? "its answer was not 200"
        var sentence = "the proxy \(proxy.host):\(proxy.port) refused to open a tunnel (CONNECT) to \(target): \(answered)"
        if let status, status.hasPrefix("403") || status.hasPrefix("405") {
            sentence += " (a proxy that allows CONNECT only to port 443 refuses others this way)"
        }
        return sentence
    }
}
