import * as pulumi from "@pulumi/pulumi";
import * as wpengine from "pulumi-wpengine";

const config = new pulumi.Config();
const installId = config.require("installId");
const bucket = config.require("bucket"); // an existing S3 bucket the install can read
const bucketRegion = config.get("bucketRegion") ?? "us-east-1";

// Lookup: the install, to report where its files are now served from.
const install = wpengine.getInstallOutput({ installId });

// The file LargeFS checks for at the root of the bucket before it serves from it: upload an object
// named `validationFileName` holding exactly `validationFileContent` (for example with
// `new aws.s3.BucketObject("largefs-validation", { bucket, key: file.name, content: file.content })`).
const file = wpengine.getOffloadValidationFileOutput({ installId });

// The install's whole offload configuration. Requests for uploads are redirected (301) to the
// bucket, except the private folder, which stays on the install. `up` waits until the service reports
// the settings applied.
const offload = new wpengine.OffloadSettings("uploads", {
  installId,
  bucket,
  bucketRegion,
  pathSettings: [
    {
      path: "wp-content/uploads/",
      excludedPaths: ["wp-content/uploads/private/"],
      redirectType: "permanent",
    },
  ],
  timeoutSeconds: 600,
});

export const offloadStatus = offload.status;
export const offloadedPaths = offload.pathSettings.apply((ps) => ps.map((p) => p.path));
export const servedBy = pulumi.interpolate`${install.name}: s3://${offload.bucket} (${offload.bucketRegion})`;
export const validationFileName = file.name;
export const validationFileContent = file.content;
