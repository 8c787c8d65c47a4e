import ArgumentParser
import JOSE

/// The header members a producing command (`jws sign`, `jwe encrypt`) takes from the command
/// line: `--kid`, `--typ`, `--content-type`.
struct JOSEHeaderOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The key ID: chooses the key of a JWK Set, and goes in the header.", valueName: "kid"))
    var kid: String?

    @Option(help: ArgumentHelp("The header's typ (e.g. JWT).", valueName: "typ"))
    var typ: String?

    @Option(name: .customLong("content-type"), help: ArgumentHelp("The header's cty (JWT for a nested JWT).", valueName: "cty"))
    var contentType: String?

    /// Sets `typ` and `cty` in `header` where given.
    func applyTypes(to header: inout JOSEHeader) {
        if let typ { header.type = typ }
        if let contentType { header.contentType = contentType }
    }
}
