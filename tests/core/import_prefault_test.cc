// Writing ahead into reserved memory (core/model/prefault.h): the Prefaulter touches only spare
// capacity, page by page, never an element, and follows a column to its new block when it is
// reallocated; an import with prefault() between every push (everything touched ahead, again and
// again) gives exactly the model of one without.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "cli/file_reader.h"
#include "core/model/prefault.h"
#include "tests/core/import_test_util.h"
#include "tests/core/test_data.h"

using namespace tw;
using namespace tw::test;

namespace {

// The pages of v's spare capacity that start past its filled bytes (what touch() may write).
size_t spare_pages(const std::vector<int64_t>& v) {
  const uintptr_t begin = reinterpret_cast<uintptr_t>(v.data());
  const uintptr_t filled = begin + v.size() * sizeof(int64_t), end = begin + v.capacity() * sizeof(int64_t);
  const uintptr_t first = (filled + kPrefaultPage - 1) & ~uintptr_t(kPrefaultPage - 1);
  return first >= end ? 0 : (end - first + kPrefaultPage - 1) / kPrefaultPage;
}

}  // namespace

TEST_CASE("Prefaulter touches each spare page once, within its budget, and no element") {
  std::vector<int64_t> a, b;
  a.reserve(100000);
  b.reserve(3000);
  for (int64_t i = 0; i < 1000; ++i) a.push_back(i * 7 - 3);
  for (int64_t i = 0; i < 10; ++i) b.push_back(-i);
  const size_t want = spare_pages(a) + spare_pages(b);
  REQUIRE(want > 100);
  Prefaulter pf;
  auto both = [&](auto&& f) { f(a), f(b); };  // the columns, as a table's for_each_column hands them
  size_t total = 0, calls = 0;
  for (size_t n; (n = pf.touch_each(20, both)) > 0; ++calls) {
    CHECK(n <= 20);  // two columns, 10 pages each at most
    total += n;
  }
  CHECK(total == want);
  CHECK(calls >= want / 20);
  CHECK(pf.touch_each(1000, both) == 0);  // nothing left: touched pages are remembered
  for (int64_t i = 0; i < 1000; ++i) REQUIRE(a[i] == i * 7 - 3);
  for (int64_t i = 0; i < 10; ++i) REQUIRE(b[i] == -i);
  // Appending over touched storage, then a reallocation: the new block's spare pages are touched.
  for (int64_t i = 1000; i < 100000; ++i) a.push_back(i * 7 - 3);
  a.reserve(400000);
  CHECK(pf.touch_each(1 << 20, both) == spare_pages(a));
  for (int64_t i = 0; i < 100000; ++i) REQUIRE(a[i] == i * 7 - 3);
}

TEST_CASE("an import with prefault between every push equals one without") {
  for (const char* rel : {"kineto/tb_plugin/samples/resnet50_num_workers_4/worker0.1623212756351.pt.trace.json.gz",
                          "hta/tests/data/nccl_parser_config/nccl_data.json.gz"}) {
    CAPTURE(rel);
    const std::string text = read_data(rel);
    REQUIRE(!text.empty());
    auto import = [&](bool prefault) {
      auto imp = std::make_unique<TraceImporter>();
      imp->set_size_hint(text.size());  // tables reserved to their projected size: much spare capacity
      size_t touched = 0;
      for (size_t pos = 0; pos < text.size(); pos += 65536) {
        imp->push(text.data() + pos, std::min<size_t>(65536, text.size() - pos));
        if (prefault)
          for (size_t n; (n = imp->prefault(1 << 20)) > 0;) touched += n;
      }
      if (prefault) CHECK(touched > 0);
      imp->finish();
      return imp;
    };
    auto plain = import(false);
    auto ahead = import(true);
    const std::string want = fingerprint(*plain), got = fingerprint(*ahead);
    CHECK_MESSAGE(got == want, first_difference(want, got));
  }
}
