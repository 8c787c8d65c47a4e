import ASN1Kit
import AsymmetricKeys

/// The certificate policy processing of RFC 5280 §6.1 (valid_policy_tree, explicit_policy,
/// policy_mapping, inhibit_anyPolicy), with the user-initial-policy-set anyPolicy and every
/// initial flag off, as OpenSSL's default. Qualifiers are not kept: they never change the answer.
struct PolicyProcessor {
    private struct Node {
        var policy: ASN1ObjectIdentifier
        var expected: Set<ASN1ObjectIdentifier>
        var parent: Int
        var alive = true
    }

    /// Runs the policy checks over `certificates`, the path without its trust anchor, ordered from
    /// the certificate the anchor issued down to the leaf. Returns the index (into `certificates`)
    /// and a sentence for the first failure, or `nil`.
    static func check(_ certificates: [Certificate], selfIssued: [Bool]) -> (index: Int, detail: String)? {
        let n = certificates.count
        var explicitPolicy = n + 1
        var policyMapping = n + 1
        var inhibitAny = n + 1
        let any = PolicyExtensions.anyPolicy
        var levels: [[Node]]? = [[Node(policy: any, expected: [any], parent: -1)]]

        for (i, certificate) in certificates.enumerated() {
            let depth = i + 1
            let isLeaf = i == n - 1
            let extensions: PolicyExtensions
            do {
                extensions = try PolicyExtensions(certificate)
            } catch {
                return (i, error.description)
            }
            let hasPoliciesExtension = certificate.extensions.all.contains { $0.oid == CertificateExtension.certificatePolicies }
            if hasPoliciesExtension && certificate.extensions.certificatePolicies == nil {
                return (i, "the certificate policies extension is malformed")
            }
            if let policies = certificate.extensions.certificatePolicies, var tree = levels {
                // (d)(1): each policy other than anyPolicy.
                let parents = tree[depth - 1]
                var level: [Node] = []
                for policy in policies where policy.oid != any {
                    var matched = false
                    for (index, parent) in parents.enumerated() where parent.alive && parent.expected.contains(policy.oid) {
                        level.append(Node(policy: policy.oid, expected: [policy.oid], parent: index))
                        matched = true
                    }
                    if !matched, let index = parents.firstIndex(where: { $0.alive && $0.policy == any }) {
                        level.append(Node(policy: policy.oid, expected: [policy.oid], parent: index))
                    }
                }
                // (d)(2): anyPolicy, when not inhibited.
                if policies.contains(where: { $0.oid == any }) && (inhibitAny > 0 || (!isLeaf && selfIssued[i])) {
                    for (index, parent) in parents.enumerated() where parent.alive {
                        for value in parent.expected.sorted(by: { $0.dotted < $1.dotted })
                        where !level.contains(where: { $0.parent == index && $0.policy == value }) {
                            level.append(Node(policy: value, expected: [value], parent: index))
                        }
                    }
                }
                tree.append(level)
                levels = Self.pruned(tree)
            } else {
                levels = nil
            }
            if explicitPolicy == 0 && levels == nil {
                return (i, "no valid certificate policy remains and an explicit policy is required")
            }
            if isLeaf {
                if explicitPolicy > 0 { explicitPolicy -= 1 }
                if extensions.requireExplicitPolicy == 0 { explicitPolicy = 0 }
                if explicitPolicy == 0 && levels == nil {
                    return (i, "no valid certificate policy remains and an explicit policy is required")
                }
                return nil
            }
            // Preparation for the next certificate (§6.1.4).
            for mapping in extensions.mappings where mapping.issuerDomain == any || mapping.subjectDomain == any {
                return (i, "a policy mapping maps anyPolicy")
            }
            if !extensions.mappings.isEmpty, var tree = levels {
                var mapped: [ASN1ObjectIdentifier: Set<ASN1ObjectIdentifier>] = [:]
                for mapping in extensions.mappings { mapped[mapping.issuerDomain, default: []].insert(mapping.subjectDomain) }
                if policyMapping > 0 {
                    for (issuerDomain, subjects) in mapped.sorted(by: { $0.key.dotted < $1.key.dotted }) {
                        var found = false
                        for index in tree[depth].indices where tree[depth][index].alive && tree[depth][index].policy == issuerDomain {
                            tree[depth][index].expected = subjects
                            found = true
                        }
                        if !found, let anyNode = tree[depth].first(where: { $0.alive && $0.policy == any }) {
                            tree[depth].append(Node(policy: issuerDomain, expected: subjects, parent: anyNode.parent))
                        }
                    }
                    levels = tree
                } else {
                    for index in tree[depth].indices where mapped[tree[depth][index].policy] != nil {
                        tree[depth][index].alive = false
                    }
                    levels = Self.pruned(tree)
                }
            }
            if !selfIssued[i] {
                if explicitPolicy > 0 { explicitPolicy -= 1 }
                if policyMapping > 0 { policyMapping -= 1 }
                if inhibitAny > 0 { inhibitAny -= 1 }
            }
            if let value = extensions.requireExplicitPolicy { explicitPolicy = min(explicitPolicy, value) }
            if let value = extensions.inhibitPolicyMapping { policyMapping = min(policyMapping, value) }
            if let value = extensions.inhibitAnyPolicy { inhibitAny = min(inhibitAny, value) }
        }
        return nil
    }

    /// Deletes childless nodes above the deepest level, bottom up; `nil` when the deepest level
    /// has no node left.
    private static func pruned(_ input: [[Node]]) -> [[Node]]? {
        var tree = input
        guard let deepest = tree.indices.last, tree[deepest].contains(where: \.alive) else { return nil }
        var depth = deepest
        while depth > 0 {
            var hasChild = [Bool](repeating: false, count: tree[depth - 1].count)
            for node in tree[depth] where node.alive { hasChild[node.parent] = true }
            for index in tree[depth - 1].indices where !hasChild[index] { tree[depth - 1][index].alive = false }
            depth -= 1
        }
        return tree[0].contains(where: \.alive) ? tree : nil
    }
}
