import { ScreenPlaceholder } from '../../../ui/screen-placeholder';

export function Component() {
  return <ScreenPlaceholder name="Set up your wallet" />;
}
