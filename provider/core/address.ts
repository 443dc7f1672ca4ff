/** The input that puts an object under its parent (the install of a domain, the account of a user). */
import type { z } from "zod";
import { uuidString } from "./inputs";

/** A parent's UUID: part of the object's address (`parent`), so a change of it replaces the object. */
export const parentInput = (description: string, meta?: z.core.GlobalMeta) =>
  uuidString.meta({ description, replaces: true, parent: true, ...meta });
