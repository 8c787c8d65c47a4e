// The download pipeline over loopback (a file-backed HTTP server in the same process):
//   100 MB CMS AES-256-GCM payload decrypted as it streams vs the same download without
//   decryption (target ≥ 80 % of its throughput), both to /dev/null;
//   10 MB vs 100 MB decrypted, to compare peak RSS (target: independent of the payload size);
//   the same 10 MB and 100 MB with the cache on (bodies streamed to files beside the store;
//   target ≥ 0.9× the plain download's throughput, peak RSS the same for both sizes);
//   1 MB of chunked RSA-2048 OAEP-SHA256 decrypted on all cores (RSAChunkedDecryptor, directly and
//   through the pipeline) vs the single-core RSAPrivateKey.decrypt (target ≥ 1.8× on 2 cores).
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
        let transport = NetworkTransport()
        let downloader = Downloader(transport: transport)
        let request = DownloadRequest(url: server.url(name), decryptor: decryptor, destination: .file("/dev/null"))
        let result = try await downloader.result(for: request)
        try await transport.shutdown()
        guard result.resultLength == expectedLength else { fatalError("\(name): \(result.resultLength) bytes, expected \(expectedLength)") }
    }

    /// The same download with the cache on: a fresh cache each time (so every run transfers),
    /// made and removed outside the measured part.
    @Sendable func downloadCached(_ name: String, expectedLength: Int, benchmark: Benchmark) async throws {
        let directory = NSTemporaryDirectory() + "coffer-pipeline-bench-cache-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cache = try DownloadCache(directory: directory)
        defer { cache.close() }
        let transport = NetworkTransport()
        let downloader = Downloader(transport: transport, configuration: .init(cache: cache))
        let request = DownloadRequest(url: server.url(name), decryptor: CMSDecryptor(key: key), destination: .file("/dev/null"),
                                      cachePolicy: .enabled(storeDecrypted: false, revalidate: false))
        benchmark.startMeasurement()
        let result = try await downloader.result(for: request)
        benchmark.stopMeasurement()
        try await transport.shutdown()
        guard result.resultLength == expectedLength, try cache.count() == 1 else { fatalError("\(name): not decrypted and cached") }
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

    Benchmark("Pipeline 100 MB CMS AES-256-GCM, decrypted, cache on", configuration: transfers) { benchmark in
        for _ in benchmark.scaledIterations {
            try await downloadCached("cms-gcm-100mb.der", expectedLength: 100_000_000, benchmark: benchmark)
        }
    }
    Benchmark("Pipeline 10 MB CMS AES-256-GCM, decrypted, cache on", configuration: transfers) { benchmark in
        for _ in benchmark.scaledIterations {
            try await downloadCached("cms-gcm-10mb.der", expectedLength: 10_000_000, benchmark: benchmark)
        }
    }

    let rsa = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .throughput], timeUnits: .milliseconds, warmupIterations: 1,
        scalingFactor: .one, maxDuration: .seconds(40), maxIterations: 3)
    let rsaCiphertext = payloads.rsaCiphertext
    let rsaPlaintext = payloads.rsaPlaintext
    Benchmark("Pipeline RSA-2048 OAEP 1 MB: all cores, through the pipeline (loopback)", configuration: rsa) { benchmark in
        for _ in benchmark.scaledIterations {
            let transport = NetworkTransport()
            let downloader = Downloader(transport: transport)
            let result = try await downloader.result(for: DownloadRequest(url: server.url("rsa-oaep-1mb.bin"), decryptor: RSAChunkedDecryptor(key: key)))
            try await transport.shutdown()
            guard result.data == rsaPlaintext else { fatalError("RSA pipeline: wrong plaintext") }
        }
    }
    let response = DownloadResponse(url: server.url("rsa-oaep-1mb.bin"), status: 200, headers: [])
    Benchmark("Pipeline RSA-2048 OAEP 1 MB: all cores, RSAChunkedDecryptor directly", configuration: rsa) { benchmark in
        for _ in benchmark.scaledIterations {
            let plaintext = try await RSAChunkedDecryptor(key: key).decrypt(rsaCiphertext, response: response)
            guard plaintext == rsaPlaintext else { fatalError("RSA parallel: wrong plaintext") }
        }
    }
    Benchmark("Pipeline RSA-2048 OAEP 1 MB: single core, RSAPrivateKey.decrypt", configuration: rsa) { benchmark in
        for _ in benchmark.scaledIterations {
            let plaintext = try key.decrypt(rsaCiphertext, padding: .oaepSHA256)
            guard plaintext == rsaPlaintext else { fatalError("RSA direct: wrong plaintext") }
        }
    }
}
