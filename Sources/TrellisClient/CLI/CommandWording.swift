import TrellisCore
import TrellisProtocol

/// The server's refusals in the CLI's words. The server writes for protocol clients and names
/// methods ("add it first with body.add"); a person at a shell types commands, so the CLI names
/// those instead, and adds the next step where a refusal has an obvious one (`--replace` for a
/// taken name, `reload` for a session without sections). UIKit's texts stay as they are, first,
/// so scripts can match them; `--json` prints the server's error untouched.
public enum CommandWording {
    /// Each method a refusal may name, and the command that sends it.
    static let commands: [(method: String, command: String)] = [
        ("session.create", "trellis new"), ("session.fork", "trellis fork"), ("session.destroy", "trellis kill"), ("session.info", "trellis info"),
        ("session.list", "trellis ls"), ("session.attach", "trellis attach"), ("data.reload", "trellis reload"),
        ("data.apply", "trellis apply"), ("layout.set", "trellis layout"), ("view.resize", "trellis resize"),
        ("scroll.configure", "trellis scroll-config"), ("scroll.toItem", "trellis scroll --item"), ("scroll.to", "trellis scroll --to"),
        ("gesture.pan", "trellis drag"), ("gesture.touch", "trellis touch"), ("gesture.tap", "trellis tap"),
        ("query.attributes", "trellis query"), ("query.scene", "trellis scene"), ("clock.advance", "trellis advance"),
        ("body.add", "trellis body add"), ("body.remove", "trellis body rm"), ("dynamics.add", "trellis dynamics add"),
        ("dynamics.update", "trellis dynamics update"), ("dynamics.remove", "trellis dynamics rm"), ("dynamics.list", "trellis dynamics ls"),
        ("dynamics.item", "trellis dynamics item"),
    ]

    /// `message` as the CLI prints it; `session` is the session the command named, if any.
    public static func message(_ message: String, domainCode: String?, data: JSONValue?, session: String?) -> String {
        let details = data?["details"]
        let name = details?["session"]?.stringValue ?? session ?? "NAME"
        switch domainCode {
        case "unknown_session" where message.contains("there are no sessions"):
            return "no session named '\(name)'; there are no sessions (create one with `trellis new \(name)`)"
        case "session_exists":
            return "a session named '\(name)' already exists: choose another name, or replace it with `trellis new \(name) --replace` (its viewers are told it closed)"
        case "invalid_update" where details?["reason"]?.stringValue == "insert_item_section_out_of_range" && details?["sectionCount"] == .number(0):
            return message + "\nsession '\(name)' has no sections yet: `trellis reload \(name) --items N` gives it one of N items, "
                + "or `trellis batch \(name) --insert-section 0 --insert 0:0..J` inserts one holding items 0 to J"
        default:
            return commandsNamed(in: message, session: name)
        }
    }

    /// Method names, and the protocol's ways of writing values around them, replaced by the
    /// commands and options that do the same.
    static func commandsNamed(in message: String, session: String) -> String {
        var text = message
        let phrases: [(String, String)] = [
            ("({\"body\": NAME}, added by body.add)", "(body:NAME, added by `trellis body add`)"),
            ("scroll.configure {scrollEnabled: true} first", "`trellis scroll-config \(session) --scroll-enabled true` first"),
            ("clock.advance needs a session created with clock \"manual\"", "`trellis advance` needs a session made with `trellis new \(session) --manual-clock`"),
            ("as dynamics.add returned it", "as `trellis dynamics add` printed it"),
            // session.seek's and session.fork's moment, as `--at` and `--at-frame` name it.
            ("params.atFrame: ", "--at-frame: "), ("params.at: ", "--at: "),
        ]
        for (phrase, words) in phrases { text = text.replacingAll(phrase, with: words) }
        for (method, command) in commands where text.contains(method) {
            text = text.replacingAll(method, with: "`\(command)`")
        }
        return text
    }
}
