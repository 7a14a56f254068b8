#include "core/summary/digest.h"

#include "core/base/json_depth.h"
#include "core/base/version.h"
#include "core/job/rank_record_json.h"

namespace tw {
namespace {

using nlohmann::json;

constexpr const char* kDigestSchema = "tracewise.digest/1";
constexpr int kMaxDepth = 64;  // a summary nests about ten levels

}  // namespace

std::string digest_json(const Digest& d) {
  json records = json::array();
  for (const RankRecord& r : d.records) records.push_back(rank_record_json(r));
  return dump_json({{"schema", kDigestSchema},
                    {"tracewise", kTracewiseVersion},
                    {"options", {{"hta_compat", d.hta_compat}, {"kernel_rules", d.kernel_rules}}},
                    {"files", d.files},
                    {"records", records}});
}

bool read_digest(std::string_view text, Digest* out, std::string* error) {
  *out = Digest{};
  if (!json_nesting_within(text, kMaxDepth)) {
    *error = "not a tracewise digest: nested deeper than a digest is";
    return false;
  }
  const json j = json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    *error = "not a tracewise digest: not a JSON object";
    return false;
  }
  auto it = j.find("schema");
  if (it == j.end() || !it->is_string() || *it != kDigestSchema) {
    *error = std::string("not a tracewise digest (its schema is not ") + kDigestSchema + ")";
    return false;
  }
  it = j.find("tracewise");
  const std::string version = it != j.end() && it->is_string() ? it->get<std::string>() : "unknown";
  if (version != kTracewiseVersion) {
    *error = "a digest of tracewise " + version + ", this is " + kTracewiseVersion +
             ": summarize the traces again with this version";
    return false;
  }
  const json& options = j.value("options", json::object());
  const json& files = j.value("files", json());
  const json& records = j.value("records", json());
  if (!options.is_object() || !files.is_array() || !records.is_array() || files.size() != records.size()) {
    *error = "a malformed digest: it needs options, and as many records as files";
    return false;
  }
  auto hta = options.find("hta_compat");
  auto rules = options.find("kernel_rules");
  if (hta == options.end() || !hta->is_boolean() || rules == options.end() || !rules->is_string()) {
    *error = "a malformed digest: its options are incomplete";
    return false;
  }
  out->hta_compat = hta->get<bool>();
  out->kernel_rules = rules->get<std::string>();
  for (const json& f : files) {
    if (!f.is_object() || !f.contains("name")) {
      *error = "a malformed digest: a file summary is not an object with a name";
      return false;
    }
    out->files.push_back(f);
  }
  for (const json& r : records) {
    RankRecord rec;
    std::string why;
    if (!rank_record_from_json(r, &rec, &why)) {
      *error = "a malformed digest: " + why;
      return false;
    }
    out->records.push_back(std::move(rec));
  }
  return true;
}

bool append_digest(Digest* into, Digest&& part, bool first, std::string* error) {
  if (first) {
    into->hta_compat = part.hta_compat;
    into->kernel_rules = part.kernel_rules;
  } else if (part.hta_compat != into->hta_compat || part.kernel_rules != into->kernel_rules) {
    *error = "digests made with different options (--hta-compat or --kernel-rules) cannot be merged";
    return false;
  }
  for (nlohmann::json& f : part.files) into->files.push_back(std::move(f));
  for (RankRecord& r : part.records) into->records.push_back(std::move(r));
  return true;
}

std::string digest_summary_json(const Digest& d) {
  // As `tracewise summarize`: the job analysis from the records only with two files or more.
  const std::vector<RankRecord> none;
  return dump_json(summary_document(d.files, d.files.size() >= 2 ? &d.records : &none));
}

}  // namespace tw
