export { LOG_SQRT_2PI, logPhi, millsRatio, normalCdf, normalLogPdf, normalPdf, normalPdfCdfRatio, normalQuantile } from "./normal.js";
export { logPhiDerivativesToOrder } from "./logPhiDerivativesToOrder.js";
export { log1pExp, logistic, logSumExp } from "./log1pExp.js";
export { logFactorial, logGamma } from "./logGamma.js";
export { regularizedGammaP, regularizedGammaQ } from "./incompleteGamma.js";
export { gaussHermite, normalExpectation, type GaussHermiteRule } from "./gaussHermite.js";
export { minimizeBfgs, type BfgsOptions, type BfgsResult, type ValueAndGradient } from "./bfgs.js";
