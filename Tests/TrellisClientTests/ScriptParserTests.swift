import Testing
import TrellisClient
import TrellisCore

@Suite struct ScriptParserTests {
    // MARK: Tokenizer

    @Test func wordsSplitOnBlanksAndQuotesKeepSpaces() throws {
        #expect(try ScriptTokenizer.words("insert demo 0:0..2 --id-prefix n") == ["insert", "demo", "0:0..2", "--id-prefix", "n"])
        #expect(try ScriptTokenizer.words("  new\t demo  ") == ["new", "demo"])
        #expect(try ScriptTokenizer.words(#"expect-error invalid_update "attempt to delete item 9""#) == ["expect-error", "invalid_update", "attempt to delete item 9"])
        #expect(try ScriptTokenizer.words("new 'my session' --layout circle") == ["new", "my session", "--layout", "circle"])
    }

    @Test func quotedPartsJoinAndEmptyQuotesAreWords() throws {
        #expect(try ScriptTokenizer.words(#"id="a b"'c d'e"#) == ["id=a bc de"])
        #expect(try ScriptTokenizer.words(#"x "" y"#) == ["x", "", "y"])
        #expect(try ScriptTokenizer.words("x ''") == ["x", ""])
    }

    @Test func escapesFollowTheShell() throws {
        // In double quotes only \" and \\ are escapes; other backslashes stay.
        #expect(try ScriptTokenizer.words(#""say \"hi\" \\ \n""#) == [#"say "hi" \ \n"#])
        // In single quotes nothing is.
        #expect(try ScriptTokenizer.words(#"'a\b'"#) == [#"a\b"#])
        // Outside quotes a backslash keeps the next character.
        #expect(try ScriptTokenizer.words(##"a\ b \#c"##) == ["a b", "#c"])
    }

    @Test func hashStartsACommentOnlyAtTheStartOfAWord() throws {
        #expect(try ScriptTokenizer.words("# a comment").isEmpty)
        #expect(try ScriptTokenizer.words("advance demo 16ms # one frame") == ["advance", "demo", "16ms"])
        #expect(try ScriptTokenizer.words("insert demo 0:0=a#b") == ["insert", "demo", "0:0=a#b"])
        #expect(try ScriptTokenizer.words("x '# not a comment'") == ["x", "# not a comment"])
    }

    @Test func unterminatedQuotesAreErrors() {
        for bad in [#"x "open"#, "x 'open", #"x \"#] {
            #expect(throws: SyntaxError.self) { try ScriptTokenizer.words(bad) }
        }
    }

    // MARK: Parser

    @Test func commandsAndExpectationsInOrderWithLineNumbers() throws {
        let script = try ScriptParser().parse("""
            # a script
            new demo --manual-clock

            reload demo --items 20
            expect demo 0:3 frame=0,110,100,100
            """, file: "t.trellis")
        #expect(script.steps.map(\.location.line) == [2, 4, 5])
        #expect(script.steps[0].action == .command(["new", "demo", "--manual-clock"], expectedError: nil))
        #expect(script.steps[1].text == "reload demo --items 20")
        guard case .expect(.attributes(let session, .cell(let path), .model, _, _)) = script.steps[2].action else {
            Issue.record("expected an attribute expectation, got \(script.steps[2].action)")
            return
        }
        #expect(session == "demo" && path == IndexPath(0, 3))
        #expect(script.steps[2].location.description == "t.trellis:5")
    }

    @Test func expectErrorBelongsToTheCommandBeforeIt() throws {
        let script = try ScriptParser().parse("""
            delete demo 0:9
            # comments and blank lines between are fine

            expect-error invalid_update "attempt to delete item 9"
            query demo --at 0:40
            expect-error out_of_range
            """, file: "t.trellis")
        #expect(script.steps.count == 2)
        #expect(script.steps[0].action == .command(["delete", "demo", "0:9"], expectedError: ExpectedError(
            code: "invalid_update", substring: "attempt to delete item 9",
            location: ScriptLocation(file: "t.trellis", line: 4), text: #"expect-error invalid_update "attempt to delete item 9""#)))
        guard case .command(_, let error?) = script.steps[1].action else {
            Issue.record("expected an expect-error on the query")
            return
        }
        #expect(error.code == "out_of_range" && error.substring == nil && error.location.line == 6)
    }

    @Test func misplacedExpectErrorIsASyntaxErrorWithItsLine() {
        let cases: [(String, Int, String)] = [
            ("expect-error invalid_update", 1, "must follow the command"),
            ("new a\nexpect a visible=0\nexpect-error invalid_update", 3, "must follow the command"),
            ("delete a 0:9\nexpect-error invalid_update\nexpect-error out_of_range", 3, "already has an expect-error"),
            ("delete a 0:9\nexpect-error", 2, "expect-error CODE"),
            ("delete a 0:9\nexpect-error a b c", 2, "expect-error CODE"),
        ]
        for (text, line, message) in cases {
            #expect {
                try ScriptParser().parse(text, file: "s.trellis")
            } throws: { error in
                guard let error = error as? ScriptSyntaxError else { return false }
                return error.location == ScriptLocation(file: "s.trellis", line: line) && error.message.contains(message)
            }
        }
    }

    @Test func commandsGoThroughTheSuppliedCheck() {
        // The trellis executable supplies argument-parser's verdict; the parser adds file:line.
        let parser = ScriptParser { words in words.first == "frobnicate" ? "unknown command 'frobnicate'" : nil }
        #expect(throws: ScriptSyntaxError(ScriptLocation(file: "c.trellis", line: 2), "unknown command 'frobnicate'")) {
            try parser.parse("new a\nfrobnicate a\n", file: "c.trellis")
        }
        #expect(throws: ScriptSyntaxError(ScriptLocation(file: "c.trellis", line: 1), "unterminated double quote")) {
            try parser.parse(#"new "a"#, file: "c.trellis")
        }
    }

    @Test func badExpectationsAreSyntaxErrors() {
        for line in ["expect", "expect demo", "expect demo 0:x frame=1,2,3,4", "expect demo 0:1 frame=1,2",
                     "expect demo 0:1 colour=red", "expect demo 0:1", "expect demo visible=many",
                     "expect demo 0:1 frame<1,2,3,4", "expect demo scene == ", "expect demo 0:1 hidden=maybe",
                     "expect demo 0:1 tolerance=-1 alpha=1", "expect demo 0:1 absent alpha=1"] {
            #expect(throws: ScriptSyntaxError.self, "\(line)") { try ScriptParser().parse(line, file: "e") }
        }
    }

    @Test func crlfLineEndsCountAsOneLine() throws {
        let script = try ScriptParser().parse("new a\r\n\r\nreload a --items 3\r\n", file: "w")
        #expect(script.steps.map(\.location.line) == [1, 3])
        #expect(script.steps[1].action == .command(["reload", "a", "--items", "3"], expectedError: nil))
    }
}
