// The download pipeline over loopback (a file-backed HTTP server in the same process):
//   100 MB CMS AES-256-GCM payload decrypted as it streams vs the same download without
//   decryption (target ≥ 80 % of its throughput), both to /dev/null;
//   10 MB vs 100 MB decrypted, to compare peak RSS (target: independent of the payload size);
//   1 MB of chunked RSA-2048 OAEP-SHA256 through the pipeline vs RSAPrivateKey.decrypt directly
//   (target within 5 %).
// Every path is checked for the right result before anything is timed.
import Benchmark
import DownloadPipeline
import Foundation
import AsymmetricKeys

let benchmarks: @Sendable () -> Void = {
    let payloads: PipelinePayloads
    let server: BenchmarkFileServer
    do {
        payloads = try PipelinePayloads.load()
        server = try BenchmarkFileServer(directory: PipelinePayloads.directory)
    } catch {
        fatalError("pipeline benchmarks: cannot prepare the payloads: \(error)")
    }
    let key = payloads.key

    let transfers = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .peakMemoryResident],
        timeUnits: .milliseconds,
        warmupIterations: 1,
        scalingFactor: .one,
        maxDuration: .seconds(30),
        maxIterations: 5
    )

    /// One download to /dev/null through a fresh downloader; checks the result length.
    @Sendable func download(_ name: String, decryptor: (any Decryptor)?, expectedLength: Int) async throws {
        let transport = AsyncHTTPClientTransport()
        let downloader = Downloader(transport: transport)
        let request = DownloadRequest(url: server.url(name), decryptor: decryptor, destination: .file("/dev/null"))
        let result = try await downloader.result(for: request)
        try await transport.shutdown()
        guard result.resultLength == expectedLength else { fatalError("\(name): \(result.resultLength) bytes, expected \(expectedLength)") }
    }

    let cms100Length = (try? FileManager.default.attributesOfItem(atPath: PipelinePayloads.directory + "/cms-gcm-100mb.der")[.size] as? Int) ?? 0

    Benchmark("Pipeline 100 MB download, no decryption", configuration: transfers) { benchmark in
        for _ in benchmark.scaledIterations {
            try await download("cms-gcm-100mb.der", decryptor: nil, expectedLength: cms100Length)
        }
    }
    Benchmark("Pipeline 100 MB CMS AES-256-GCM, decrypted as it streams", configuration: transfers) { benchmark in
        for _ in benchmark.scaledIterations {
            try await download("cms-gcm-100mb.der", decryptor: CMSDecryptor(key: key), expectedLength: 100_000_000)
        }
    }
    Benchmark("Pipeline 10 MB CMS AES-256-GCM, decrypted as it streams", configuration: transfers) { benchmark in
        for _ in benchmark.scaledIterations {
            try await download("cms-gcm-10mb.der", decryptor: CMSDecryptor(key: key), expectedLength: 10_000_000)
        }
    }

    let rsa = Benchmark.Configuration(
        metrics: [.wallClock, .throughput], timeUnits: .milliseconds, warmupIterations: 1,
        scalingFactor: .one, maxDuration: .seconds(40), maxIterations: 3)
    let rsaCiphertext = payloads.rsaCiphertext
    let rsaPlaintext = payloads.rsaPlaintext
    Benchmark("Pipeline RSA-2048 OAEP 1 MB: through the pipeline (loopback)", configuration: rsa) { benchmark in
        for _ in benchmark.scaledIterations {
            let transport = AsyncHTTPClientTransport()
            let downloader = Downloader(transport: transport)
            let result = try await downloader.result(for: DownloadRequest(url: server.url("rsa-oaep-1mb.bin"), decryptor: RSAChunkedDecryptor(key: key)))
            try await transport.shutdown()
            guard result.data == rsaPlaintext else { fatalError("RSA pipeline: wrong plaintext") }
        }
    }
    Benchmark("Pipeline RSA-2048 OAEP 1 MB: RSAPrivateKey.decrypt directly", configuration: rsa) { benchmark in
        for _ in benchmark.scaledIterations {
            let plaintext = try key.decrypt(rsaCiphertext, padding: .oaepSHA256)
            guard plaintext == rsaPlaintext else { fatalError("RSA direct: wrong plaintext") }
        }
    }
}
