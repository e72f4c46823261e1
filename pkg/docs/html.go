package docs

import (
	"bytes"
	_ "embed"
	"html/template"
	"strings"
	"sync"

	"github.com/toolctl/toolctl/pkg/export"
)

// The HTML pages come from html/template, which escapes every value by
// context. The few values given to it as template.HTML are built here from
// escaped pieces only (esc, inlineHTML, blocksHTML). Each page is
// self-contained: inline CSS, no scripts, no external assets, and a
// Content-Security-Policy that forbids loading anything.

//go:embed templates/pages.tmpl
var pagesTemplate string

//go:embed templates/style.css
var styleCSS string

var pages = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("pages").Funcs(template.FuncMap{
		"marker":  func() template.HTML { return template.HTML("<!-- " + Marker + " -->") },
		"css":     func() template.CSS { return template.CSS(styleCSS) },
		"summary": summary,
		"slug":    slug,
		"pathURL": func(p string) template.URL { return template.URL(pathURL(p)) },
		"inline":  func(s string) template.HTML { return template.HTML(htmlInline(s)) },
		"blocks":  func(s string) template.HTML { return template.HTML(blocksHTML(s)) },
		"code":    func(s string) template.HTML { return template.HTML(htmlCode(s)) },
		"link":    func(l link) template.HTML { return template.HTML(htmlLink(l)) },
		"json":    compactJSON,
		"enum": func(vs []any) template.HTML {
			return template.HTML(joinMapped(jsonValues(vs), htmlCode))
		},
		"entry": func(p *toolPage) template.HTML {
			return template.HTML(entryText(p, htmlCode, htmlInline))
		},
		"paramText": func(x export.Param) template.HTML {
			return template.HTML(paramText(x, htmlCode, htmlInline))
		},
		"bound": func(bs []bound) template.HTML { return template.HTML(boundText(bs, htmlCode)) },
		"prereq": func(q prereq) template.HTML {
			return template.HTML(prereqText(q, htmlInline, htmlInline, htmlLink))
		},
		"step": func(st step) template.HTML {
			return template.HTML(stepText(st, htmlInline, htmlInline, htmlLink))
		},
	}).Parse(pagesTemplate))
})

type htmlRenderer struct{}

func (htmlRenderer) index(p *indexPage) ([]byte, error) { return execute("index", p) }

func (htmlRenderer) page(p *toolPage) ([]byte, error) { return execute("tool", p) }

func execute(name string, data any) ([]byte, error) {
	var b bytes.Buffer
	if err := pages().ExecuteTemplate(&b, name, data); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// htmlInline renders one line of inline Markdown, like mdInline does for
// the Markdown pages.
func htmlInline(s string) string { return inlineHTML(oneLine(s)) }

func htmlCode(s string) string {
	if s == "" {
		return ""
	}
	return "<code>" + esc(strings.ReplaceAll(s, "\n", " ")) + "</code>"
}

// htmlLink is mdLink for the HTML pages.
func htmlLink(l link) string {
	if l.File == "" {
		return htmlCode(l.Name) + ` <span class="muted">(not documented here)</span>`
	}
	return `<a href="` + esc(l.File) + `">` + htmlCode(l.Name) + "</a>"
}
