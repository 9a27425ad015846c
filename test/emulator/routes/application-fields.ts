// The application body shared by v3 create/update and v2 create.
import { DEVICE_TYPES, PLATFORMS, type Application } from '../model';
import type { BodyReader } from '../validate';

export type ApplicationFields = Partial<
  Pick<
    Application,
    | 'name'
    | 'description'
    | 'platform'
    | 'deviceType'
    | 'deviceModel'
    | 'deviceOs'
    | 'appVersion'
    | 'bundleId'
    | 'deviceToken'
  >
>;

export function readApplicationFields(r: BodyReader, creating: boolean, withDeviceToken: boolean): ApplicationFields {
  const out: ApplicationFields = {};
  const name = r.string('name', { required: creating, nonEmpty: true, max: 200 });
  if (name !== undefined) out.name = name.trim();
  const platform = r.oneOf('platform', PLATFORMS);
  if (platform !== undefined) out.platform = platform;
  const deviceType = r.oneOf('deviceType', DEVICE_TYPES);
  if (deviceType !== undefined) out.deviceType = deviceType;
  const optional = [
    'description',
    'deviceModel',
    'deviceOs',
    'appVersion',
    'bundleId',
    ...(withDeviceToken ? (['deviceToken'] as const) : []),
  ] as const;
  for (const field of optional) {
    const v = r.nullableString(field, 1000);
    if (v !== undefined) out[field] = v;
  }
  return out;
}
