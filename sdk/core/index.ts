/** The transport core: knows HTTP, retries, errors and pagination, and no endpoint. */
export * from "./config";
export * from "./errors";
export * from "./pace";
export * from "./pagination";
export * from "./path";
export * from "./poll";
export * from "./process";
export * from "./transport";
export * from "./validate";
