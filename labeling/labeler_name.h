// Labeler names: what the server accepts as a name and the one spelling it stores. A name is NFKC-normalized
// (so a full-width or ligature spelling is the same labeler), and refused when it is empty, too long, not UTF-8,
// holds control, format or other invisible characters (a zero-width space would make "ana\u200b" a second
// labeler), or mixes scripts the way look-alike spoofs do (Cyrillic "а" in "аna"), per ICU's spoof checker at
// UTS #39's "highly restrictive" level (one script, or Latin with Han/Kana/Hangul/Bopomofo as CJK names do).
// Two names are the same labeler when their keys (NFKC with case folding) are equal: "ana" and "Ana" are one
// person; the spelling kept is the roster's, else the first one the store recorded.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace evalsuite::labeling {

constexpr std::size_t kMaxLabelerNameBytes = 64;

// The stored spelling of `raw` (NFKC, UTF-8), or nullopt with `problem` set to why it is refused.
std::optional<std::string> NormalizeLabelerName(std::string_view raw, std::string& problem);

// The key two labeler names compare by: NFKC_Casefold of the (already normalized) name, UTF-8.
std::string LabelerKey(std::string_view name);

// Why `name` is not acceptable as a labeler name, or nullopt when it is (its spelling may still normalize).
std::optional<std::string> LabelerNameProblem(std::string_view name);

}  // namespace evalsuite::labeling
