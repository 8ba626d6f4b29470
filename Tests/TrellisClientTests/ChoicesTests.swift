import Testing
@testable import TrellisClient

/// Enumerated values: listed for people, and a mistyped one answered with the likely meaning.
@Suite struct ChoicesTests {
    let styles = ["linear", "rotary", "invertedRotary", "cylinder", "coverFlow", "coverFlow2"]

    @Test func listsReadAsASentence() {
        #expect(Choices.list(["a"]) == "a")
        #expect(Choices.list(["a", "b"]) == "a or b")
        #expect(Choices.list(["a", "b", "c"]) == "a, b or c")
        #expect(Choices.list(["a", "b"], conjunction: "and") == "a and b")
    }

    @Test func aTypoGetsTheClosestChoice() {
        #expect(Choices.closest(to: "rotory", among: styles) == "rotary")
        #expect(Choices.closest(to: "cylindre", among: styles) == "cylinder")   // two neighbours swapped: one edit
        #expect(Choices.closest(to: "coverflow", among: styles) == "coverFlow")  // letter case is no edit
        #expect(Choices.closest(to: "invertedrotory", among: styles) == "invertedRotary")
        #expect(Choices.closest(to: "spring", among: styles) == nil)             // nothing near
        #expect(Choices.closest(to: "x", among: ["a", "xy"]) == "a")            // a tie: the earlier
    }

    @Test func editDistanceCountsSwapsAsOne() {
        func d(_ a: String, _ b: String) -> Int { Choices.distance(Array(a), Array(b)) }
        #expect(d("", "abc") == 3 && d("abc", "") == 3)
        #expect(d("kitten", "sitting") == 3)
        #expect(d("cirlce", "circle") == 1)
        #expect(d("same", "same") == 0)
    }

    @Test func aCheckNamesTheOptionTheChoicesAndTheSuggestion() throws {
        #expect(try Choices.check("rotary", among: styles, what: "--style") == "rotary")
        #expect(throws: SyntaxError("--style 'rotory': expected linear, rotary, invertedRotary, cylinder, coverFlow or coverFlow2; did you mean rotary?")) {
            try Choices.check("rotory", among: styles, what: "--style")
        }
        #expect(throws: SyntaxError("--style 'zzz': expected linear, rotary, invertedRotary, cylinder, coverFlow or coverFlow2")) {
            try Choices.check("zzz", among: styles, what: "--style")
        }
    }
}
