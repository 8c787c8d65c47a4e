import AsymmetricKeys
import CofferJSON
import KeytoolSupport

extension Keytool.InspectCommand {
    /// `keytool inspect FILE.sig`: what an SSHSIG signature holds (``SSHSignatureDescription``).
    func inspectSSHSignature(_ input: InputFile) throws {
        let signature = try SSHSignatureDescription.read(input)
        let description = SSHSignatureDescription()
        if json {
            print(description.json(signature).line)
        } else {
            print(description.lines(signature, name: input.name).joined(separator: "\n"))
        }
    }
}
