/** The LargeFS validation file: what to put at the root of the bucket before offloading to it. */
import { clientOf, type LookupOptions, outputOf } from "./common";

/** The validation file of an install. */
export interface OffloadValidationFileInfo {
  /** The object key to create at the bucket's root, e.g. `64f1250c.largefs`. */
  name: string;
  /** The object's exact content. */
  content: string;
}

/**
 * The file LargeFS checks for at the root of the bucket before it serves an install's uploads from it:
 * upload an object named `name` holding `content` (for example with an `aws.s3.BucketObject`).
 */
export async function getOffloadValidationFile(
  args: { installId: string },
  options?: LookupOptions,
): Promise<OffloadValidationFileInfo> {
  const f = await (await clientOf(options)).offloadSettings.validationFile(args.installId);
  return { name: f.name, content: f.content };
}
export const getOffloadValidationFileOutput = outputOf(getOffloadValidationFile);
