import Bedrock
import FoundationEssentials
import Screen
import Timeline
import TwitterAPI

extension App {
    public struct Settings: Sendable {
        public var keyMap: KeyMap = .standard
        public var theme: Theme = .fallback
        public var themes: [String] = Theme.available()
        public var confirmBeforePost = false
        public var bellOnMention = false
        /// Said in the status bar beside the account (the demo's own polling pace).
        public var statusNote: String?
        /// A new direct message rings the bell (`bell_on_message`).
        public var bellOnMessage = false
        /// A desktop notification (OSC 9 / OSC 777) for each new mention.
        public var desktopNotifications = false
        /// Where the attach prompt looks for files.
        public var files = FileAccess.disk
        /// config.toml's `[filters]`.
        public var filters = Filters()
        public var panes: [TimelineID] = [.home, .mentions]
        public var drafts: DraftStore?
        public var cache: TimelineCache?
        /// Account names the switch key cycles through, and the one in use.
        public var accounts: [String] = []
        public var account: String?
        /// Opens another account: its store, engine, drafts and cache.
        public var switcher: (@Sendable (String) async throws -> Switched)?
        /// Whether opening that account runs a program that may ask on the terminal
        /// (`secret_command`): the screen is handed back while it runs.
        public var switchAsks: (@Sendable (String) -> Bool)?
        /// Where the loop reads the time (notices, autosave, "2m" ages); tests move it by hand.
        public var clock: any WallClock = SystemClock()
        /// An ssh session: links are copied (OSC 52), not opened on a machine with no browser.
        public var remoteSession =
            ProcessEnvironment.values["SSH_CONNECTION"] != nil
            || ProcessEnvironment.values["SSH_TTY"] != nil
        /// `$BROWSER`, else `xdg-open`.
        public var browser = ProcessEnvironment.values["BROWSER"]
        /// `$VISUAL`, else `$EDITOR`, else `vi` (as git does); run by `/bin/sh`, so it may carry
        /// arguments (`code --wait`).
        /// How pictures are made; nil: pictures are off.
        public var pictures: PictureSetup?
        /// `theme = "auto"` chose the theme: the terminal's answer may change it, until a theme is chosen.
        public var themeAuto = false
        /// Whether the terminal's answers say its background is light; nil where they do not.
        public var backgroundIsLight: (@Sendable ([UInt8]) -> Bool?)?
        /// Pictures as the terminal's answers at start say (`images = "auto"`); nil keeps them.
        public var picturesAnswered: (@Sendable ([UInt8]) -> PictureSetup?)?
        /// Small pictures on cards (`thumbnails = true`), when pictures are on.
        public var thumbnails = false
        /// The selected card's background band (`selection_band`); off leaves the gutter bar alone.
        public var selectionBand = true
        public var editor = ProcessEnvironment.values["VISUAL"] ?? ProcessEnvironment.values["EDITOR"] ?? "vi"
        public init() {}
    }

    /// What reading as another account needs.
    public struct Switched: Sendable {
        public var store: TimelineStore
        public var engine: SyncEngine
        public var drafts: DraftStore?
        public var cache: TimelineCache?
        public init(store: TimelineStore, engine: SyncEngine, drafts: DraftStore?, cache: TimelineCache?) {
            self.store = store
            self.engine = engine
            self.drafts = drafts
            self.cache = cache
        }
    }
}
