#include "labeling/labeler_name.h"

#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>
#include <unicode/uspoof.h>
#include <unicode/ustring.h>

#include <cstdio>
#include <memory>

namespace evalsuite::labeling {
namespace {

// Configured once; ICU documents checks on a configured checker as safe from many threads.
const USpoofChecker* SpoofChecker() {
  static USpoofChecker* checker = [] {
    UErrorCode status = U_ZERO_ERROR;
    USpoofChecker* made = uspoof_open(&status);
    uspoof_setChecks(made, USPOOF_RESTRICTION_LEVEL | USPOOF_INVISIBLE | USPOOF_MIXED_NUMBERS, &status);
    uspoof_setRestrictionLevel(made, USPOOF_HIGHLY_RESTRICTIVE);
    return U_SUCCESS(status) ? made : nullptr;
  }();
  return checker;
}

bool Invisible(UChar32 c) {
  switch (u_charType(c)) {
    case U_CONTROL_CHAR:  // C0/C1 controls
    case U_FORMAT_CHAR:   // zero-width space and joiners, bidi overrides, BOM
    case U_LINE_SEPARATOR:
    case U_PARAGRAPH_SEPARATOR:
    case U_UNASSIGNED:
    case U_PRIVATE_USE_CHAR:
    case U_SURROGATE:
      return true;
    default:
      break;
  }
  // Hangul fillers, variation selectors and the like draw nothing; any space but U+0020 is a look-alike.
  return u_hasBinaryProperty(c, UCHAR_DEFAULT_IGNORABLE_CODE_POINT) || (c != ' ' && u_isUWhiteSpace(c));
}

}  // namespace

std::optional<std::string> NormalizeLabelerName(std::string_view raw, std::string& problem) {
  if (raw.empty()) {
    problem = "the labeler name is empty";
    return std::nullopt;
  }
  if (raw.size() > 4 * kMaxLabelerNameBytes) {
    problem = "the labeler name is longer than " + std::to_string(kMaxLabelerNameBytes) + " bytes";
    return std::nullopt;
  }
  // Strict UTF-8 first: ICU's converter refuses ill-formed, overlong and surrogate sequences.
  UErrorCode status = U_ZERO_ERROR;
  int32_t length = 0;
  u_strFromUTF8(nullptr, 0, &length, raw.data(), static_cast<int32_t>(raw.size()), &status);
  if (status != U_BUFFER_OVERFLOW_ERROR && U_FAILURE(status)) {
    problem = "the labeler name is not valid UTF-8";
    return std::nullopt;
  }
  const icu::UnicodeString text = icu::UnicodeString::fromUTF8(icu::StringPiece(raw.data(), raw.size()));
  status = U_ZERO_ERROR;
  const icu::Normalizer2* nfkc = icu::Normalizer2::getNFKCInstance(status);
  icu::UnicodeString normalized;
  if (U_SUCCESS(status)) normalized = nfkc->normalize(text, status);
  if (U_FAILURE(status)) {
    problem = "the labeler name cannot be normalized (ICU: " + std::string(u_errorName(status)) + ")";
    return std::nullopt;
  }
  for (int32_t i = 0; i < normalized.length();) {
    const UChar32 c = normalized.char32At(i);
    if (Invisible(c)) {
      char code[16];
      std::snprintf(code, sizeof(code), "U+%04X", static_cast<unsigned>(c));
      problem = std::string("the labeler name contains an invisible or control character (") + code + ")";
      return std::nullopt;
    }
    i += U16_LENGTH(c);
  }
  std::string out;
  normalized.toUTF8String(out);
  if (out.empty()) {
    problem = "the labeler name is empty";
    return std::nullopt;
  }
  if (out.size() > kMaxLabelerNameBytes) {
    problem = "the labeler name is longer than " + std::to_string(kMaxLabelerNameBytes) + " bytes";
    return std::nullopt;
  }
  if (out.front() == ' ' || out.back() == ' ') {
    problem = "the labeler name starts or ends with a space";
    return std::nullopt;
  }
  const USpoofChecker* checker = SpoofChecker();
  status = U_ZERO_ERROR;
  const int32_t failed =
      checker ? uspoof_check2UTF8(checker, out.data(), static_cast<int32_t>(out.size()), nullptr, &status) : 0;
  if (checker == nullptr || U_FAILURE(status)) {
    problem = "the labeler name cannot be checked (ICU spoof checker unavailable)";
    return std::nullopt;
  }
  if (failed & (USPOOF_RESTRICTION_LEVEL | USPOOF_MIXED_NUMBERS)) {
    problem = "the labeler name mixes scripts (look-alike letters such as a Cyrillic 'а' in a Latin name)";
    return std::nullopt;
  }
  if (failed & USPOOF_INVISIBLE) {
    problem = "the labeler name contains invisible characters";
    return std::nullopt;
  }
  return out;
}

std::string LabelerKey(std::string_view name) {
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* fold = icu::Normalizer2::getNFKCCasefoldInstance(status);
  const icu::UnicodeString text =
      icu::UnicodeString::fromUTF8(icu::StringPiece(name.data(), static_cast<int32_t>(name.size())));
  icu::UnicodeString folded;
  if (U_SUCCESS(status)) folded = fold->normalize(text, status);
  if (U_FAILURE(status)) return std::string(name);  // the name itself: still one key per spelling
  std::string out;
  folded.toUTF8String(out);
  return out;
}

std::optional<std::string> LabelerNameProblem(std::string_view name) {
  std::string problem;
  if (NormalizeLabelerName(name, problem)) return std::nullopt;
  return problem;
}

}  // namespace evalsuite::labeling
