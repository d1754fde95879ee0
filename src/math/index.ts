export { LOG_SQRT_2PI, logPhi, millsRatio, normalCdf, normalLogPdf, normalPdf, normalPdfCdfRatio, normalQuantile } from "./normal.js";
export { logPhiDerivatives } from "./logPhiDerivatives.js";
export { log1pExp, logistic, logSumExp } from "./log1pExp.js";
export { logFactorial, logGamma } from "./logGamma.js";
