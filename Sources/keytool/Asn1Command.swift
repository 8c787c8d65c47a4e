import ASN1Kit
import ArgumentParser
import CofferJSON
import KeytoolSupport

extension Keytool {
    /// `keytool asn1 FILE|- [--json] [--ber]`: the DER tree, like `openssl asn1parse -i`.
    struct Asn1Command: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "asn1",
            abstract: "Print the DER tree of a file (PEM is unwrapped first; every block is printed).",
            discussion: """
                Each line shows offset, depth, header length, content length, primitive/constructed, the \
                class and tag name, and the value of primitives. Strict DER is enforced unless --ber is given.
                """
        )

        @Argument(help: "The file to read, or - for standard input.")
        var file: String

        @Flag(help: "Print one JSON object per node (JSON Lines).")
        var json = false

        @Flag(help: "Accept BER (indefinite lengths, non-minimal lengths, constructed strings) instead of strict DER.")
        var ber = false

        @Option(help: "Maximum nesting depth.")
        var maxDepth = ASN1ParsingOptions.defaultMaximumDepth

        func validate() throws {
            guard maxDepth > 0 else { throw ValidationError("--max-depth must be positive") }
        }

        func run() throws {
            let input = try InputFile.read(file)
            let options = ASN1ParsingOptions(rules: ber ? .lenientBER : .der, maximumDepth: maxDepth)
            let documents: [(label: String?, bytes: [UInt8])]
            if PEMParser.containsPEM(input.bytes) {
                do {
                    documents = try PEMParser.blocks(in: input.bytes).map { ($0.label, $0.bytes) }
                } catch let error as ASN1Error {
                    throw CommandError("\(input.name): \(error.reason)")
                }
            } else {
                documents = [(nil, input.bytes)]
            }
            guard documents.contains(where: { !$0.bytes.isEmpty }) else {
                throw CommandError("\(input.name): the input is empty")
            }
            for (index, document) in documents.enumerated() {
                let tree: ASN1Tree
                do {
                    tree = try ASN1Tree(parsing: document.bytes, options: options)
                } catch let error as ASN1Error {
                    let block = document.label.map { " (PEM block \(index + 1), \($0))" } ?? ""
                    throw CommandError("\(input.name)\(block): \(error.reason)")
                }
                if !json && documents.count > 1 {
                    if index > 0 { print("") }
                    print("# PEM block \(index + 1): \(document.label ?? "")")
                }
                for node in tree.nodes { print(json ? jsonLine(node, block: documents.count > 1 ? index : nil) : textLine(node)) }
            }
        }

        private func textLine(_ node: ASN1Node) -> String {
            func pad(_ s: String, _ width: Int) -> String { String(repeating: " ", count: max(0, width - s.count)) + s }
            let form = node.tag.isConstructed ? "cons" : "prim"
            let indent = String(repeating: " ", count: node.depth)
            var name = node.tag.name
            name += String(repeating: " ", count: max(0, 18 - name.count))
            let length = node.element.isIndefiniteLength ? "inf " : pad(String(node.length), 4)
            var line = "\(pad(String(node.offset), 5)):d=\(node.depth)  hl=\(node.headerLength) l=\(length) \(form): \(indent)\(name)"
            if let value = ASN1ValueFormatter.value(of: node.element) { line += ":" + value }
            return line
        }

        private func jsonLine(_ node: ASN1Node, block: Int?) -> String {
            var object = JSONObject()
            object.set("block", block)
            object.set("offset", node.offset)
            object.set("depth", node.depth)
            object.set("headerLength", node.headerLength)
            object.set("length", node.length)
            object.set("class", node.tag.tagClass.description)
            object.set("tag", Int(exactly: node.tag.number))
            object.set("constructed", node.tag.isConstructed)
            object.set("name", node.tag.name)
            object.set("value", ASN1ValueFormatter.value(of: node.element))
            return object.line
        }
    }
}
