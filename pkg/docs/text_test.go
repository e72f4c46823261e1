package docs

import "testing"

func TestInlineHTML(t *testing.T) {
	for in, want := range map[string]string{
		"plain & <b>bold</b>":              "plain &amp; &lt;b&gt;bold&lt;/b&gt;",
		"use `a < b` here":                 "use <code>a &lt; b</code> here",
		"``a ` b``":                        "<code>a ` b</code>",
		"unclosed `tick":                   "unclosed `tick",
		"**strong** and *em* and _em_":     "<strong>strong</strong> and <em>em</em> and <em>em</em>",
		"snake_case_name and a_b":          "snake_case_name and a_b",
		"2 * 3 * 4":                        "2 * 3 * 4",
		"**`code` inside**":                "<strong><code>code</code> inside</strong>",
		`\*not em\* and \<`:                "*not em* and &lt;",
		"[a](https://x.y/?q=1&r=\"2\")":    `<a href="https://x.y/?q=1&amp;r=&#34;2&#34;">a</a>`,
		"[a](javascript:alert(1))":         "a",
		"[a](JavaScript:alert(1))":         "a",
		"[a](data:text/html,x)":            "a",
		"[a](page.md#x) [b](/abs) [c](?q)": `<a href="page.md#x">a</a> <a href="/abs">b</a> <a href="?q">c</a>`,
		"[a](mailto:x@y.z \"title\")":      `<a href="mailto:x@y.z">a</a>`,
		"[`x`](y)":                         `<a href="y"><code>x</code></a>`,
		"[not a link] (x)":                 "[not a link] (x)",
		"<https://x.y/a> and <b>":          `<a href="https://x.y/a">https://x.y/a</a> and &lt;b&gt;`,
		"<javascript:alert(1)>":            "&lt;javascript:alert(1)&gt;",
		"it's \"quoted\"":                  "it&#39;s &#34;quoted&#34;",
		"**unclosed":                       "**unclosed",
		"***both***":                       "<strong><em>both</em></strong>",
	} {
		if got := inlineHTML(in); got != want {
			t.Errorf("inlineHTML(%q)\n got %q\nwant %q", in, got, want)
		}
	}
}

func TestBlocksHTML(t *testing.T) {
	for in, want := range map[string]string{
		"one\ntwo\n\nthree":           "<p>one\ntwo</p>\n<p>three</p>\n",
		"# H\ntext":                   "<h1>H</h1>\n<p>text</p>\n",
		"### H ###":                   "<h3>H</h3>\n",
		"#not a heading":              "<p>#not a heading</p>\n",
		"- a\n- b\n  more\n- c":       "<ul>\n<li>a</li>\n<li>b\nmore</li>\n<li>c</li>\n</ul>\n",
		"- a\n\n- b":                  "<ul>\n<li><p>a</p></li>\n<li><p>b</p></li>\n</ul>\n",
		"1. a\n2. b":                  "<ol>\n<li>a</li>\n<li>b</li>\n</ol>\n",
		"3) a\n4) b":                  "<ol start=\"3\">\n<li>a</li>\n<li>b</li>\n</ol>\n",
		"- a\n  - b\n    - c\n- d":    "<ul>\n<li>a\n<ul>\n<li>b\n<ul>\n<li>c</li>\n</ul></li>\n</ul></li>\n<li>d</li>\n</ul>\n",
		"- a\nlazy":                   "<ul>\n<li>a\nlazy</li>\n</ul>\n",
		"- a\n* b":                    "<ul>\n<li>a</li>\n</ul>\n<ul>\n<li>b</li>\n</ul>\n",
		"text\n- item":                "<p>text</p>\n<ul>\n<li>item</li>\n</ul>\n",
		"```go\nx := `<a>`\n```":      "<pre><code class=\"language-go\">x := `&lt;a&gt;`</code></pre>\n",
		"~~~\n```\n~~~":               "<pre><code>```</code></pre>\n",
		"````\n```\nstill code\n````": "<pre><code>```\nstill code</code></pre>\n",
		"```\nunclosed":               "<pre><code>unclosed</code></pre>\n",
		"    code <x>\n\n    more":    "<pre><code>code &lt;x&gt;\n\nmore</code></pre>\n",
		"> quoted\n> *em*":            "<blockquote>\n<p>quoted\n<em>em</em></p>\n</blockquote>\n",
		"---":                         "<hr>\n",
		"a | b\n--- | ---:\n1 | 2":    "<table>\n<thead>\n<tr><th>a</th><th style=\"text-align: right\">b</th></tr>\n</thead>\n<tbody>\n<tr><td>1</td><td style=\"text-align: right\">2</td></tr>\n</tbody>\n</table>\n",
		"| a |\n| - |\n| x \\| y |":   "<table>\n<thead>\n<tr><th>a</th></tr>\n</thead>\n<tbody>\n<tr><td>x | y</td></tr>\n</tbody>\n</table>\n",
		"<div onclick=x>hi</div>":     "<p>&lt;div onclick=x&gt;hi&lt;/div&gt;</p>\n",
		"a\tb\n\n-\tx":                "<p>a   b</p>\n<ul>\n<li>x</li>\n</ul>\n",
		"line\\\nbreak":               "<p>line<br>\nbreak</p>\n",
	} {
		if got := blocksHTML(in); got != want {
			t.Errorf("blocksHTML(%q)\n got %q\nwant %q", in, got, want)
		}
	}
}

func TestMarkdownEscapes(t *testing.T) {
	for _, c := range []struct {
		fn       func(string) string
		in, want string
	}{
		{mdInline, "a <b> & &amp; `<c>` &#60;", "a &lt;b> & &amp;amp; `<c>` &amp;#60;"},
		{mdInline, "two\nlines   folded", "two lines folded"},
		{mdSafe, "[a](javascript:alert(1)) [b `c`](https://x.y/(z)) <mailto:a@b.c> <javascript:x>", "a [b `c`](https://x.y/(z)) <mailto:a@b.c> &lt;javascript:x>"},
		{mdSafe, "[[nested](data:x)](ok.md) \\<kept> `<code>`", "[nested](ok.md) \\<kept> `<code>`"},
		{mdBlock, "<b>\n```\n<b>\n```\n  ~~~\n  <i>\n  ~~~\n<i>", "&lt;b>\n```\n<b>\n```\n  ~~~\n  <i>\n  ~~~\n&lt;i>"},
		{mdLead, "# h", `\# h`},
		{mdLead, "- x", `\- x`},
		{mdLead, "10. x", `10\. x`},
		{mdLead, "3) x", `3\) x`},
		{mdLead, "3)x", "3)x"},
		{mdLead, "```", "\\```"},
		{mdLead, "#hashtag", "#hashtag"},
		{mdLead, "2024 was", "2024 was"},
		{mdCell, "a|b `c|d` e\\|f", `a\|b ` + "`c\\|d`" + ` e\|f`},
		{codeSpan, "plain", "`plain`"},
		{codeSpan, "a`b", "``a`b``"},
		{codeSpan, "`x`", "`` `x` ``"},
		{codeSpan, "two\nlines", "`two lines`"},
		{codeSpan, "", ""},
	} {
		if got := c.fn(c.in); got != c.want {
			t.Errorf("(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if got := fenced("text", "a\n````\nb"); got != "`````text\na\n````\nb\n`````\n" {
		t.Errorf("fenced = %q", got)
	}
}

func TestShiftHeadings(t *testing.T) {
	for in, want := range map[string]string{
		"# A\n## B\ntext":               "### A\n#### B\ntext",
		"## A\n###### B":                "### A\n###### B",
		"### A":                         "### A",
		"#### A":                        "#### A",
		"no headings":                   "no headings",
		"```\n# comment\n```\n# A":      "```\n# comment\n```\n### A",
		"~~~\n```\n# in code\n~~~\n# A": "~~~\n```\n# in code\n~~~\n### A",
		"  # indented":                  "  ### indented",
		"#hashtag\n# A":                 "#hashtag\n### A",
	} {
		if got := shiftHeadings(in, 3); got != want {
			t.Errorf("shiftHeadings(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSlugger(t *testing.T) {
	s := newSlugger()
	for _, c := range [][2]string{
		{"Tools", "tools"}, {"Tools", "tools-1"}, {"tools-1", "tools-1-1"}, {"Tools", "tools-2"},
		{"custom & <misc>", "custom--misc"}, {"(no category)", "no-category"}, {"Ünïcode Name", "ünïcode-name"}, {"snake_case", "snake_case"},
	} {
		if got := s.add(c[0]); got != c[1] {
			t.Errorf("add(%q) = %q, want %q", c[0], got, c[1])
		}
	}
}
