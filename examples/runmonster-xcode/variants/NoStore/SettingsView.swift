import SwiftUI

// A rule example for `no-storekit-in-sources`: a folder without any store code.
struct SettingsView: View {
    var body: some View {
        Text("Settings")
    }
}
