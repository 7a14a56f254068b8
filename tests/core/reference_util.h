// Shared by the tests that compare with HTA's reference numbers (tests/data/reference/):
// a plain delimited-table reader and the MANIFEST mapping from case name to trace path.
#pragma once
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "tests/core/test_data.h"

namespace tw::test {

// Rows of a TSV/CSV file without quoting (the reference files use none); a trailing separator
// yields a trailing empty column.
inline std::vector<std::vector<std::string>> read_table(const std::string& path, char sep) {
  std::vector<std::vector<std::string>> rows;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> cols;
    std::stringstream ss(line);
    std::string col;
    while (std::getline(ss, col, sep)) cols.push_back(col);
    if (!line.empty() && line.back() == sep) cols.push_back("");
    rows.push_back(cols);
  }
  return rows;
}

// Case name (MANIFEST local_path with '/' -> "__" and the extension removed, as the reference
// folders are named) -> local_path.
inline std::map<std::string, std::string> reference_case_paths() {
  std::map<std::string, std::string> out;
  auto rows = read_table(data_dir() + "/MANIFEST.tsv", '\t');
  for (size_t i = 1; i < rows.size(); ++i) {
    if (rows[i].empty()) continue;
    const std::string path = rows[i][0];
    std::string c = path;
    for (size_t p = c.find('/'); p != std::string::npos; p = c.find('/', p + 2)) c.replace(p, 1, "__");
    for (const std::string ext : {".json.gz", ".json", ".gz"}) {
      if (c.size() > ext.size() && c.compare(c.size() - ext.size(), ext.size(), ext) == 0) {
        c.resize(c.size() - ext.size());
        break;
      }
    }
    out[c] = path;
  }
  return out;
}

}  // namespace tw::test
