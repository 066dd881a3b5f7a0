import Foundation
import MosaicHTTP
import MosaicHTTPServer
import MosaicTestSupport
import Testing

/// A slow or idle client cannot hold every connection slot: one address gets at most
/// `perIPConnectionLimit` connections, and idle or stalled connections are closed after
/// `connectionTimeout`.
extension MosaicHTTPTests {
    @Suite struct ConnectionLimitTests {
        @Test func manyIdleConnectionsFromOneAddressLeaveANormalClientServed() async throws {
            var cfg = HTTPServer.Configuration()
            cfg.logger = nil
            // Without the per-IP limit the 24 idle sockets below would take all 16 slots.
            cfg.connectionLimit = 16
            cfg.perIPConnectionLimit = 6
            cfg.connectionTimeout = 60
            let server = HTTPServer(configuration: cfg)
            server.route(.get, "/ping", summary: "Ping") { _ in .text("pong") }
            try server.start()

            // The attacker: 24 connections from 127.0.0.2 that never send a byte.
            var idle: [RawSocket] = []
            for _ in 0..<24 {
                if let s = RawSocket(port: server.port, receiveTimeout: 2, source: "127.0.0.2") { idle.append(s) }
            }
            #expect(idle.count == 24)
            try await Task.sleep(for: .milliseconds(300))

            // A further connection from the same address is closed without an answer…
            let extra = try #require(RawSocket(port: server.port, receiveTimeout: 5, source: "127.0.0.2"))
            extra.send("GET /ping HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(!extra.readAll().contains("pong"))

            // …while clients from another address are served, several at once.
            let client = HTTPClient(baseURL: server.baseURL)
            try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<4 {
                    group.addTask { String(decoding: try await client.send(.get, "/ping").body, as: UTF8.self) }
                }
                for try await answer in group { #expect(answer == "pong") }
            }
            withExtendedLifetime(idle) {}
            await server.stop(grace: .seconds(1))
        }

        @Test func idleAndStalledConnectionsAreClosedAfterTheTimeout() async throws {
            var cfg = HTTPServer.Configuration()
            cfg.logger = nil
            cfg.connectionTimeout = 1
            let server = HTTPServer(configuration: cfg)
            server.route(.get, "/ping", summary: "Ping") { _ in .text("pong") }
            try server.start()

            let silent = try #require(RawSocket(port: server.port, receiveTimeout: 15))
            let stalled = try #require(RawSocket(port: server.port, receiveTimeout: 15))
            stalled.send("GET /ping HTTP/1.1\r\nHost: x\r\n")  // headers never finish (slowloris)
            let start = ContinuousClock.now
            #expect(silent.readAll().isEmpty)
            #expect(!stalled.readAll().contains("pong"))
            #expect(ContinuousClock.now - start < .seconds(10), "MHD did not close idle connections within the timeout")
            #expect(String(decoding: try await HTTPClient(baseURL: server.baseURL).send(.get, "/ping").body, as: UTF8.self) == "pong")
            await server.stop(grace: .seconds(1))
        }
    }
}
