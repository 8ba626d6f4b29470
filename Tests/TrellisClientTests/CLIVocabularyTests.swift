import Foundation
import Testing
import TrellisClient
import TrellisCore
import TrellisProtocol

/// The CLI's lists of layouts, styles, curves and behaviours come from the registries that
/// define them (springy was missing from `new` and `layout` help), and a mistyped value is
/// answered with the closest one, before anything is sent.
@Suite struct CLIVocabularyTests {
    /// The words of a help text, split on everything but letters and digits (lines wrap at spaces).
    func words(_ help: String) -> Set<String> {
        Set(help.split { !($0.isLetter || $0.isNumber) }.map(String.init))
    }

    @Test func everyRegisteredLayoutAndCarouselStyleIsInNewAndLayoutHelp() {
        let names = LayoutRegistry.names + CarouselStyle.allCases.map(\.rawValue) + CarouselCustomTransform.allCases.map(\.rawValue)
        for command in [["new", "--help"], ["layout", "--help"]] {
            let r = runTrellis(command)
            #expect(r.status == 0)
            let help = words(r.stdout)
            for name in names { #expect(help.contains(name), "\(command[0]) --help lacks \(name)") }
        }
    }

    @Test func everyCurveAndBehaviourNameIsInTheHelp() {
        for command in ["insert", "batch", "layout", "scroll"] {
            let help = words(runTrellis([command, "--help"]).stdout)
            for name in TimingCurve.names { #expect(help.contains(name), "\(command) --help lacks \(name)") }
        }
        let help = words(runTrellis(["dynamics", "add", "--help"]).stdout)
        for name in BehaviorSpec.typeNames + BehaviorSpec.collisionModes + BehaviorSpec.attachmentKinds + BehaviorSpec.pushModes
            + BehaviorSpec.fieldKinds {
            #expect(help.contains(name), "dynamics add --help lacks \(name)")
        }
    }

    /// The executable declares every option the behaviours declare (ArgumentParser needs each
    /// as a property, so a new behaviour's option is added there by hand: this says where).
    @Test func everyBehaviourOptionIsDeclaredByDynamicsAdd() {
        let help = runTrellis(["dynamics", "add", "--help"]).stdout
        for name in BehaviorBuilder.optionNames { #expect(help.contains("--\(name)"), "dynamics add --help lacks --\(name)") }
    }

    /// Options shared by commands say what they mean on each: a layout change is not a data
    /// change, and a spring's velocity is not a finger's.
    @Test func sharedOptionsSayWhatTheyMeanOnEachCommand() {
        let layout = runTrellis(["layout", "--help"]).stdout
        #expect(!layout.contains("--no-animation") && layout.contains("--animated"))
        let insert = runTrellis(["insert", "--help"]).stdout
        #expect(insert.contains("--no-animation") && !insert.contains("--animated "))
        for help in [layout, insert] {
            #expect(!help.contains("--velocity") && help.contains("--spring-velocity"))
        }
    }

    @Test func aMistypedValueSuggestsTheClosestAndSendsNothing() {
        let socket = CLIServer.temporaryDirectory() + "/run/s.sock"
        let cases: [([String], String)] = [
            (["new", "s", "--layout", "cirle"], "trellis: layout 'cirle': expected flow, circle, line, coverFlow, stack, carousel, springy, compositional or list; did you mean circle?\n"),
            (["layout", "s", "carousel", "--style", "rotory"], "did you mean rotary?\n"),
            (["layout", "s", "carousel", "--style", "custom", "--transform", "flip3d"], "did you mean flip3D?\n"),
            (["layout", "s", "flow", "--direction", "horizontl"], "did you mean horizontal?\n"),
            (["layout", "s", "carousel", "--set", "wrap=ture"], "trellis: --set wrap 'ture': expected true or false; did you mean true?\n"),
            (["insert", "s", "0:0", "--curve", "easeinout"], "did you mean easeInOut?\n"),
            (["insert", "s", "0:0", "--curve", "lineal"], "trellis: --curve 'lineal': expected linear, easeIn, easeOut, easeInEaseOut, spring or easeInOut; did you mean linear?\n"),
            (["scroll", "s", "--item", "0:0", "--position", "centerdVertically"], "did you mean centeredVertically?\n"),
            (["dynamics", "add", "s", "gravty", "i0"], "did you mean gravity?\n"),
            (["dynamics", "add", "s", "collision", "i0", "--mode", "everythin"], "did you mean everything?\n"),
            (["dynamics", "add", "s", "field", "i0", "--kind", "vortx"], "did you mean vortex?\n"),
            (["dynamics", "add", "s", "push", "i0", "--active", "flase"], "trellis: --active 'flase': expected true or false; did you mean false?\n"),
            (["scroll-config", "s", "--paging", "treu"], "trellis: --paging 'treu': expected true or false; did you mean true?\n"),
            (["scroll-config", "s", "--deceleration", "fats"], "trellis: --deceleration 'fats': expected normal, fast or a rate per millisecond such as 0.995; did you mean fast?\n"),
        ]
        for (arguments, ending) in cases {
            let r = runTrellis(["--socket", socket] + arguments)
            #expect(r.status == 64, "\(arguments): \(r.stderr)")
            #expect(r.stderr.hasSuffix(ending), "\(arguments): \(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: socket))
    }
}
