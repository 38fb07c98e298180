// Whether a rewritten model (torch.jit.optimize_for_inference) may stand in for the original: its logits on the
// same check input must agree to a tolerance relative to the original logits' own scale (no absolute floor:
// a model whose logits are all about 1e-9 is judged at that scale) and rank the same top classes in every row.
#pragma once

#include <cstdint>
#include <vector>

namespace evalsuite::generalization {

// Relative tolerance of the element-wise comparison: |actual - expected| <= kLogitsRelativeTolerance * max|expected|.
constexpr double kLogitsRelativeTolerance = 1e-3;

// `expected` and `actual` are row-major [rows, cols] logits of the original and the rewritten model. True when the
// shapes match, every element is within the relative tolerance, and each row's top min(5, cols) classes are the
// same classes in the same order.
bool RewrittenLogitsAgree(const std::vector<float>& expected, const std::vector<float>& actual, int64_t rows,
                          int64_t cols);

}  // namespace evalsuite::generalization
