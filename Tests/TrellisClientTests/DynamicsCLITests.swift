import Foundation
import Testing
import TrellisTestSupport
import TrellisClient

/// `trellis body …` and `trellis dynamics …`, the real executable against a real trellisd:
/// what they print, the server's refusals and their exit codes.
@Suite struct DynamicsCLITests {
    @Test func behavioursOnCellsAreAddedListedUpdatedAndRemoved() throws {
        let server = try CLIServer()
        defer { server.stop() }
        #expect(server.trellis("new", "c", "--item-size", "100x100", "--bounds", "375x667", "--manual-clock").status == 0)
        #expect(server.trellis("reload", "c", "--items", "3").status == 0)
        // Each add prints the new behaviour's id, alone, for a shell to keep.
        #expect(server.trellis("dynamics", "add", "c", "gravity", "item0", "item1").stdout == "1\n")
        #expect(server.trellis("dynamics", "add", "c", "snap", "item2", "--to", "187.5,400").stdout == "2\n")
        #expect(server.trellis("dynamics", "add", "c", "attachment", "item0", "--anchor", "50,0", "--frequency", "1", "--damping=0.5").stdout == "3\n")
        var r = server.trellis("dynamics", "ls", "c")
        #expect(r.status == 0)
        #expect(r.stdout == """
            running: true
            items: item0 item1 item2
            ID  TYPE        ELEMENTS     SETTINGS
            1   gravity     item0 item1
            2   snap        item2        snapPoint=187.5,400
            3   attachment  item0        anchor=50,0 damping=0.5 frequency=1 length=50

            """)
        // A page: the first two items, and how much was left out.
        r = server.trellis("dynamics", "ls", "c", "--limit", "2")
        #expect(r.stdout.hasPrefix("running: true\nitems: item0 item1\n(a page of 3 behaviours, 3 items, 0 bodies; more with --offset)\n"), "\(r.stdout)")
        r = server.trellis("dynamics", "ls", "c", "--limit", "2", "--offset", "2")
        #expect(r.stdout.hasPrefix("running: true\nitems: item2\nID"), "\(r.stdout)")
        #expect(server.trellis("dynamics", "ls", "c", "--limit", "0").stderr.hasPrefix("trellis: --limit must be from 1 to 20000, not 0"))
        // Update knows the type from the server: --magnitude is gravity's.
        r = server.trellis("dynamics", "update", "c", "1", "--magnitude", "0.5", "--set", "angle=0")
        #expect(r.status == 0 && r.stdout.isEmpty)
        r = server.trellis("--json", "dynamics", "ls", "c")
        #expect(r.stdout.contains(#"{"angle":0,"behavior":1,"items":["item0","item1"],"magnitude":0.5,"type":"gravity"}"#))
        // An item whose last behaviour goes is released to its layout.
        #expect(server.trellis("dynamics", "rm", "c", "1").stdout == "released: item1\n")
        #expect(server.trellis("dynamics", "rm", "c", "3").stdout == "released: item0\n")
        #expect(server.trellis("query", "c", "--at", "0:0").stdout == "0:0 item0 frame=0,0,100,100 alpha=1\n")
        r = server.trellis("dynamics", "item", "c", "item0")
        #expect(r.stdout == "item0 not dynamic center=50,50 size=100,100 angle=0 velocity=0,0 angularVelocity=0\n")
    }

    @Test func aBodyFallsAndItsStateReadsBack() throws {
        let server = try CLIServer()
        defer { server.stop() }
        #expect(server.trellis("new", "d", "--bounds", "375x667", "--manual-clock").status == 0)
        var r = server.trellis("body", "add", "d", "card", "--at", "187.5,100", "--size", "100x100", "--data", #"{"color":"orange"}"#)
        #expect(r.status == 0 && r.stdout == "body:card\n")
        #expect(server.trellis("dynamics", "add", "d", "gravity", "body:card").stdout == "1\n")
        #expect(server.trellis("advance", "d", "300ms").status == 0)
        // 0.3 s: v = g·t = 300 pt/s, fallen g·t²/2 = 45 pt.
        r = server.trellis("dynamics", "item", "d", "body:card")
        #expect(r.stdout == "body:card dynamic center=187.5,145 size=100,100 angle=0 velocity=0,300 angularVelocity=0\n")
        r = server.trellis("scene", "d")
        #expect(r.stdout.contains("body:card frame=137.5,95,100,100 alpha=1"))
        r = server.trellis("dynamics", "ls", "d")
        #expect(r.stdout.hasPrefix("running: true\nitems: body:card\nbodies: card\n"))
    }

    /// The server's refusals, in the CLI's words (commands, not methods).
    @Test func refusalsPrintTheServersMessageAndExit65() throws {
        let server = try CLIServer()
        defer { server.stop() }
        #expect(server.trellis("new", "e", "--manual-clock").status == 0)
        var r = server.trellis("dynamics", "add", "e", "gravity", "body:nope")
        #expect(r.status == 65 && r.stderr == "unknown body 'nope': add it first with `trellis body add`\n")
        r = server.trellis("dynamics", "update", "e", "9", "--damping", "1")
        #expect(r.status == 65 && r.stderr.hasPrefix("unknown behaviour 9"))
        r = server.trellis("body", "add", "e", "b", "--at", "10,10", "--size", "10x10")
        #expect(r.status == 0)
        r = server.trellis("body", "add", "e", "b", "--at", "10,10", "--size", "10x10")
        #expect(r.status == 65 && r.stderr.hasPrefix("a body named 'b' already exists"))
        #expect(server.trellis("dynamics", "add", "e", "item", "body:b", "--elasticity", "0.5").stdout == "1\n")
        r = server.trellis("body", "rm", "e", "b")
        #expect(r.status == 65 && r.stderr == "body 'b' is acted on by behaviour 1: remove it first (`trellis dynamics rm`)\n")
        // The CLI's own checks: usage errors, exit 64, before anything is sent.
        r = server.trellis("dynamics", "add", "e", "gravity", "body:b", "--anchor", "1,2")
        #expect(r.status == 64 && r.stderr == "trellis: --anchor applies to attachment behaviours, not gravity\n")
        r = server.trellis("dynamics", "add", "e", "gravity", "body:b", "--angle", "-1")
        #expect(r.status == 64 && r.stderr.contains("write it as --angle=-1"))
        r = server.trellis("body", "add", "e", "c", "--at", "1,2", "--size", "3x4", "--data", "{")
        #expect(r.status == 64 && r.stderr.hasPrefix("trellis: --data '{': not JSON"))
        #expect(server.trellis("dynamics", "ls", "e").stdout.contains("1   item  body:b    elasticity=0.5"))
    }

    /// Elements accept index paths, ranges and `all` as every other command does, resolved to
    /// the items there when the command runs (they took item ids only).
    @Test func elementsAcceptIndexPathsRangesAndAll() throws {
        let server = try CLIServer()
        defer { server.stop() }
        #expect(server.trellis("new", "p", "--manual-clock").status == 0)
        #expect(server.trellis("reload", "p", "--items", "5,3").status == 0)
        #expect(server.trellis("dynamics", "add", "p", "gravity", "0:0..2", "1:1").stdout == "1\n")
        #expect(server.trellis("dynamics", "add", "p", "collision", "all", "--bounds-boundary").stdout == "2\n")
        #expect(server.trellis("dynamics", "add", "p", "snap", "1:2", "--to", "100,100").stdout == "3\n")
        var r = server.trellis("dynamics", "ls", "p")
        #expect(r.stdout.contains("\n1   gravity    item0 item1 item2 item6\n"), "\(r.stdout)")
        #expect(r.stdout.contains("\n2   collision  item0 item1 item2 item3 item4 item5 item6 item7  translatesReferenceBoundsIntoBoundary=true\n"))
        #expect(r.stdout.contains("\n3   snap       item7"))
        #expect(server.trellis("dynamics", "update", "p", "1", "1:0").status == 0)
        #expect(server.trellis("dynamics", "ls", "p").stdout.contains("\n1   gravity    item5\n"))
        #expect(server.trellis("dynamics", "item", "p", "0:4").stdout.hasPrefix("item4 dynamic "))
        r = server.trellis("dynamics", "add", "p", "gravity", "0:9")
        #expect(r.status == 65 && r.stderr == "index path 0:9 is out of range: section 0 has 5 items (valid items 0..<5)\n")
        r = server.trellis("dynamics", "item", "p", "0:0..1")
        #expect(r.status == 64 && r.stderr == "trellis: '0:0..1': dynamics item reads one element\n")
    }
}
