// express4 is an npm alias of Express 4 (no types of its own); the Express 5 types cover what the tests use.
declare module "express4" {
  import express from "express";
  export default express;
}
