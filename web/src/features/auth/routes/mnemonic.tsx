import { ScreenPlaceholder } from '../../../ui/screen-placeholder';

export function Component() {
  return <ScreenPlaceholder name="Your recovery phrase" />;
}
