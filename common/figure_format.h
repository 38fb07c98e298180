// How a figure evalsuite prints reads, decided in one place: at least three significant digits whatever its size
// (0.2275 epochs and 0.029 s were printed as "0.2" and "0.0"), in fixed notation so that a column reads alike.
// Renderers (reports/value_format.h), `study show`, `import` and `compare` ask it; they never pick a precision.
#pragma once

#include <string>

namespace evalsuite {

inline constexpr int kMinSignificantDigits = 3;

// 12345, 1234, 123.4, 12.34, 1.23, 0.2275, 0.0290, 0.00123; 0 as "0.00". Non-finite as "inf", "-inf", "nan".
std::string FormatFigure(double value);

// A share in [0, 1] as a percentage with at least `decimals` decimals and three significant digits:
// 0.5 -> "50.0%", 0.0523 -> "5.23%", 0.00213 -> "0.213%", 0 -> "0.0%".
std::string FormatShareAsPercent(double share, int decimals = 1);

}  // namespace evalsuite
