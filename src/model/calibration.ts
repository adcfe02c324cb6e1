// Every calibration constant of the engine, in one module. Each says what it was
// fitted on (only ../shared/validation/published-runs.json, copied to validation/)
// or, where not fitted, where its value comes from. `npm run calibrate` refits the
// fitted ones and prints the fit error.

// ---- Memory: the "other" terms (bytes per GPU) --------------------------------
// (values set in the memory work; see memory.ts for how each is used)

// ---- Time: achievable efficiency and overlap -----------------------------------
// (values set in the time-model work; see time.ts)
export {};
