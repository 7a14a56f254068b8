// The comparison in Markdown for a pull-request comment (`tracewise diff --format markdown`, the
// page's Markdown export): the headline, the step metrics, the kernels and operators that changed
// most, and the notes. Written from the `tracewise.diff/1` document, so the CLI and the page print
// the same bytes. Names come from traces: each is shown as escaped code, never as Markdown or HTML.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace tw {

std::string diff_markdown(const nlohmann::json& diff_doc);
// The page's form: the document as text ("" when it is not a diff document).
std::string diff_markdown_text(const std::string& diff_json);

}  // namespace tw
