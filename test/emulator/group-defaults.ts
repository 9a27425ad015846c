// The settings a new group starts with, for seeds and for POST /v2/accounts/{a}/groups alike.
import { GROUP_COMPONENTS, type GroupSettings } from './model';

export function makeGroupDefaults(name: string): GroupSettings {
  return {
    friendlyName: name,
    branding: {
      headerColor: '#0b3d91',
      textColor: '#ffffff',
      logo: false,
      background: false,
      alignment: 'left',
      backgroundPositionX: 0,
      backgroundPositionY: 0,
      hideBackgroundGradient: false,
      hideLogoBackground: false,
      hideGroupName: false,
    },
    components: [...GROUP_COMPONENTS],
    disableChat: false,
    disableWidgets: false,
    disableComments: false,
    disableEmailComments: false,
    hideMemberDetails: false,
    disableAccordionWidgets: false,
  };
}
