// `tracewise diff BASE CAND [--fail-above PCT] [--metric NAME] [--format json|markdown]
// [--confidence PCT] [--min-impact PCT] [--hta-compat] [--jobs N]` (docs/diff-schema.md).
// Each side is a trace, a folder of rank traces, or a summary JSON written by `tracewise summarize`.
// Exit codes: 0 no regression beyond the gate, 3 a regression beyond it, 1 unreadable input, 2 usage.
#pragma once

namespace tw {

int diff_command(int argc, char** argv);  // argv[1] is "diff"

}  // namespace tw
