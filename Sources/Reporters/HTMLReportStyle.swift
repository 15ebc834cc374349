import Formats
import Model
import Loaders
import RuleEngine

// The report page's style sheet, apart from the code that writes the page: it is a long string
// literal of CSS that changes on its own (colours, print layout) and would otherwise make up a
// quarter of HTMLReport.swift. `HTMLReport.render` inlines it into `<style>`, so the page fetches
// nothing.

extension HTMLReport {
    /// Light and dark colours (every text/background pair at least 4.5:1), a stacked layout for
    /// narrow screens, and a print layout that keeps rows and findings whole and prints link targets.
    static let styleSheet = """
        :root {
          --text: #1f2328; --muted: #57606a; --bg: #ffffff; --panel: #f6f8fa; --border: #d0d7de;
          --link: #0550ae; --code-bg: #eff1f3; --mark: #fff8c5;
          --pass: #116329; --pass-bg: #dafbe1; --fail: #b42318; --fail-bg: #ffebe9;
          --unknown: #8a4600; --unknown-bg: #fff4d6; --na: #57606a; --na-bg: #eaeef2;
          --warn: #9a2c00; --warn-bg: #ffe8d6;
          --note: #0550ae; --note-bg: #ddf4ff;
        }
        @media (prefers-color-scheme: dark) {
          :root {
            --text: #e6edf3; --muted: #9198a1; --bg: #0d1117; --panel: #161b22; --border: #30363d;
            --link: #7cb8ff; --code-bg: #21262d; --mark: #4a3b00;
            --pass: #6fdd8b; --pass-bg: #12261e; --fail: #ffa198; --fail-bg: #2d1215;
            --unknown: #e3b341; --unknown-bg: #2b2111; --na: #b1bac4; --na-bg: #21262d;
            --warn: #ffab70; --warn-bg: #2f1a0c;
            --note: #7cb8ff; --note-bg: #0c2d4b;
          }
        }
        * { box-sizing: border-box; }
        html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
        body { margin: 0; background: var(--bg); color: var(--text);
          font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", "Liberation Sans", sans-serif; }
        .page { max-width: 76rem; margin: 0 auto; padding: 1.5rem 1.5rem 3rem; }
        h1 { font-size: 2rem; line-height: 1.2; margin: .2rem 0 1rem; overflow-wrap: anywhere; }
        h2 { font-size: 1.4rem; line-height: 1.3; margin: 2.5rem 0 .75rem; padding-bottom: .3rem; border-bottom: 1px solid var(--border); }
        h3 { font-size: 1.05rem; margin: 1.5rem 0 .5rem; }
        p { margin: .5rem 0; }
        a { color: var(--link); }
        code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "DejaVu Sans Mono", "Liberation Mono", monospace; font-size: .875em; }
        code { background: var(--code-bg); padding: .05em .3em; border-radius: 4px; overflow-wrap: break-word; }
        .muted, .sub, .locale, .advice, .reason { color: var(--muted); }
        .sub { display: block; font-size: .875rem; overflow-wrap: anywhere; }
        .locale { font-size: .8rem; }
        .advice, .reason { font-size: .875rem; }
        .reason { display: block; margin-top: .15rem; }
        .eyebrow { margin: 0; color: var(--muted); font-weight: 600; font-size: .9rem; }
        dl.facts { display: flex; flex-wrap: wrap; gap: .6rem 2.5rem; margin: 0; }
        dl.facts > div { min-width: 0; max-width: 100%; }
        dl.facts > div.wide { flex-basis: 100%; }
        dl.facts dt { color: var(--muted); font-size: .78rem; font-weight: 600; text-transform: uppercase; letter-spacing: .04em; }
        dl.facts dd { margin: 0; overflow-wrap: anywhere; }
        nav ul { list-style: none; display: flex; flex-wrap: wrap; gap: .3rem 1.25rem; margin: 1.25rem 0 0; padding: .6rem 0;
          border-top: 1px solid var(--border); border-bottom: 1px solid var(--border); }
        ul.plain { list-style: none; margin: 0; padding: 0; }
        .icon { width: 1em; height: 1em; flex: none; fill: currentColor; }
        /* The mark inside a filled icon is cut out in the page colour, so it reads in light and dark. */
        .icon .glyph { stroke: var(--bg); }
        .icon .dot { fill: var(--bg); }
        .status { display: inline-flex; align-items: center; gap: .35em; padding: .1em .6em .1em .4em; border-radius: 999px;
          font-weight: 600; font-size: .875rem; line-height: 1.5; white-space: nowrap; color: var(--c); background: var(--c-bg); }
        .s-pass { --c: var(--pass); --c-bg: var(--pass-bg); }
        .s-fail { --c: var(--fail); --c-bg: var(--fail-bg); }
        .s-warn { --c: var(--warn); --c-bg: var(--warn-bg); }
        .s-unknown { --c: var(--unknown); --c-bg: var(--unknown-bg); }
        .s-na { --c: var(--na); --c-bg: var(--na-bg); }
        .s-note { --c: var(--note); --c-bg: var(--note-bg); }
        .headline { display: flex; gap: .7rem; align-items: flex-start; margin: .75rem 0 1rem; padding: .9rem 1.1rem; font-size: 1.15rem;
          background: var(--c-bg); border: 1px solid var(--c); border-left-width: 6px; border-radius: 8px; }
        .headline .icon { width: 1.6rem; height: 1.6rem; color: var(--c); margin-top: .05rem; }
        .tallies { display: grid; grid-template-columns: repeat(auto-fit, minmax(17rem, 1fr)); gap: 1rem; margin: 1rem 0; }
        .tally-group { border: 1px solid var(--border); border-radius: 8px; padding: .75rem 1rem; background: var(--panel); }
        .tally-group h3 { margin: 0 0 .5rem; font-size: .8rem; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
        .tally { list-style: none; display: flex; flex-wrap: wrap; gap: .5rem; margin: 0; padding: 0; }
        .tally .status { font-size: .95rem; }
        .tally .status b { font-size: 1.1rem; font-variant-numeric: tabular-nums; }
        .tally .zero { --c: var(--muted); --c-bg: var(--na-bg); font-weight: 500; }
        .profile { color: var(--muted); }
        table { width: 100%; border-collapse: collapse; margin: .5rem 0 1rem; }
        th, td { text-align: left; vertical-align: top; padding: .55rem .6rem; border-bottom: 1px solid var(--border); }
        thead th { font-size: .78rem; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); border-bottom: 2px solid var(--border); }
        tbody th { font-weight: normal; }
        th.num, td.num { text-align: right; width: 2.75rem; font-variant-numeric: tabular-nums; color: var(--muted); }
        th.count, td.count { text-align: right; font-variant-numeric: tabular-nums; }
        table.checklist tr > :first-child { border-left: 4px solid var(--border); }
        table.checklist tr[data-status="fail"] > :first-child { border-left-color: var(--fail); }
        table.checklist tr[data-status="warn"] > :first-child { border-left-color: var(--warn); }
        table.checklist tr[data-status="unknown"] > :first-child { border-left-color: var(--unknown); }
        table.checklist tr[data-status="pass"] > :first-child { border-left-color: var(--pass); }
        table.checklist thead tr > :first-child { border-left-color: transparent; }
        table.checklist tr.has-details > * { border-bottom: 0; }
        table.checklist tr.item > th, tbody th > a > code { white-space: nowrap; }
        .item-id { text-decoration: none; }
        .item-id code { color: var(--text); }
        .item-id:hover code, .item-id:focus code { text-decoration: underline; }
        :target { scroll-margin-top: 1rem; }
        tr:target > *, li:target { background: var(--mark); }
        tr.details > td { padding: 0 .6rem 1rem 3.35rem; }
        ol.next-steps { margin: .25rem 0 1rem; padding-left: 1.5rem; }
        ol.next-steps li { margin: .3rem 0; overflow-wrap: anywhere; }
        ul.questions { list-style: none; margin: 0 0 .6rem; padding: 0; }
        ul.questions li { display: flex; gap: .5rem; align-items: flex-start; color: var(--text); }
        ul.questions .icon { color: var(--unknown); margin-top: .25rem; }
        ul.findings { list-style: none; margin: 0; padding: 0; display: grid; gap: .75rem; }
        .finding { border: 1px solid var(--border); border-left: 4px solid var(--c); border-radius: 6px; padding: .6rem .9rem; background: var(--bg); min-width: 0; }
        .finding p { margin: .3rem 0; }
        .finding-head { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; }
        .finding-number { color: var(--muted); font-variant-numeric: tabular-nums; }
        .message { font-weight: 600; overflow-wrap: anywhere; }
        .where { color: var(--muted); font-size: .9rem; }
        pre.source { margin: .4rem 0; padding: .45rem .7rem; background: var(--panel); border: 1px solid var(--border); border-radius: 4px;
          overflow-x: auto; white-space: pre; }
        pre.source .gutter { display: inline-block; min-width: 2ch; margin-right: .7rem; padding-right: .7rem; text-align: right;
          color: var(--muted); border-right: 1px solid var(--border); user-select: none; }
        pre.source mark { background: var(--mark); color: inherit; text-decoration: underline; text-decoration-color: var(--fail); text-underline-offset: 3px; }
        .why-label { margin: 0; font-size: .8rem; font-weight: 600; color: var(--muted); }
        ul.reasons { margin-bottom: .35rem; }
        ul.reasons li { white-space: nowrap; }
        .fix strong { color: var(--pass); }
        .note strong { color: var(--muted); }
        footer { margin-top: 3rem; padding-top: 1rem; border-top: 1px solid var(--border); color: var(--muted); font-size: .875rem; }
        @media (max-width: 42rem) {
          .page { padding: 1rem .8rem 2rem; }
          h1 { font-size: 1.55rem; }
          .headline { font-size: 1.05rem; }
          table.stack thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }
          table.stack, table.stack tbody, table.stack tr, table.stack th, table.stack td { display: block; width: auto; }
          table.stack tr { padding: .5rem 0; border-bottom: 1px solid var(--border); }
          table.stack th, table.stack td { padding: .15rem 0; border: 0; text-align: left; }
          table.stack td[data-label]::before { content: attr(data-label) ": "; font-weight: 600; color: var(--muted); }
          table.checklist tr.item > td.num { display: inline-block; width: auto; padding-left: .4rem; margin-right: .4rem; }
          table.checklist tr.item > td.num::before { content: "#"; }
          table.checklist tr.item > th { display: inline-block; }
          table.checklist tr.has-details { border-bottom: 0; }
          tr.details > td { padding: 0 0 .75rem; }
          pre.source { white-space: pre-wrap; overflow-wrap: anywhere; }
        }
        @media print {
          :root {
            --text: #000; --muted: #444; --bg: #fff; --panel: #f4f4f4; --border: #999; --link: #000; --code-bg: #f0f0f0; --mark: #fff3b0;
            --pass: #0b5a23; --pass-bg: #fff; --fail: #a00; --fail-bg: #fff; --unknown: #7a3e00; --unknown-bg: #fff;
            --warn: #8a2800; --warn-bg: #fff;
            --na: #444; --na-bg: #fff; --note: #003f8a; --note-bg: #fff;
          }
          body { font-size: 10pt; }
          .page { max-width: none; padding: 0; }
          nav { display: none; }
          h2, h3 { break-after: avoid; page-break-after: avoid; }
          tr, .finding, .tally-group, .headline { break-inside: avoid; page-break-inside: avoid; }
          .status { border: 1px solid var(--c); }
          .headline { border-width: 2px; border-left-width: 6px; }
          /* Rule pages are named by the rule id beside them; other links print their address. */
          a[href^="http"]:not(.rule)::after { content: " <" attr(href) ">"; font-size: .8em; color: var(--muted); overflow-wrap: anywhere; }
          pre.source { white-space: pre-wrap; overflow-wrap: anywhere; }
          * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
        }

        """
}
